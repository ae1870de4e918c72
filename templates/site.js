// Status filter, text search, sort and CSV of the shown rows on the index. The page is complete
// without this script: it reveals the form, hides rows that do not match, reorders rows within
// each category, and keeps the view in the address (#status=leads,parity&q=goodput&sort=ratio)
// so that a filtered view can be shared; a count in the first screen's table filters by its status.
(function () {
  "use strict";
  var form = document.getElementById("filters");
  if (!form) { return; }
  var rows = Array.prototype.slice.call(document.querySelectorAll("tr[data-status]"));
  var sections = Array.prototype.slice.call(document.querySelectorAll("section.category"));
  var boxes = Array.prototype.slice.call(form.querySelectorAll("input[name=status]"));
  var query = document.getElementById("q");
  var sort = document.getElementById("sort");
  var shown = document.getElementById("shown");
  form.hidden = false;

  // The view's state is kept in the fragment (#status=trails&sort=gap), which works from file:// too; an
  // anchor fragment (#latency) is left alone, and an address of an earlier version (?status=…) still opens.
  function stateParams() {
    var hash = window.location.hash.slice(1);
    if (hash.indexOf("=") !== -1) { return new URLSearchParams(hash); }
    return new URLSearchParams(window.location.search);
  }

  function fromAddress() {
    var params = stateParams();
    if (params.has("status")) {
      var wanted = params.get("status").split(",");
      boxes.forEach(function (box) { box.checked = wanted.indexOf(box.value) !== -1; });
    }
    query.value = params.get("q") || "";
    var order = params.get("sort") || "";
    sort.value = Array.prototype.some.call(sort.options, function (o) { return o.value === order; }) ? order : "";
  }

  function toAddress() {
    var params = new URLSearchParams();
    var checked = boxes.filter(function (box) { return box.checked; }).map(function (box) { return box.value; });
    if (checked.length !== boxes.length) { params.set("status", checked.join(",")); }
    if (query.value.trim()) { params.set("q", query.value.trim()); }
    if (sort.value) { params.set("sort", sort.value); }
    var state = params.toString();
    var hash = window.location.hash;
    if (state) { hash = "#" + state; } else if (hash.indexOf("=") !== -1) { hash = ""; }
    var url = window.location.pathname + hash;
    if (url === window.location.pathname + window.location.search + window.location.hash) { return; }
    try { window.history.replaceState(null, "", url); } catch (e) { /* file:// in some browsers */ }
  }

  function number(row, name, missing) {
    var v = row.getAttribute(name);
    return v === null ? missing : parseFloat(v);
  }

  function key(row) {
    var rank = number(row, "data-rank", 0);
    if (sort.value === "status") { return [number(row, "data-status-rank", 0), rank]; }
    if (sort.value === "ratio") { return [-number(row, "data-ratio", -Infinity), rank]; }
    if (sort.value === "age") { return [-number(row, "data-age", -Infinity), rank]; }
    return [rank, 0];
  }

  function reorder() {
    sections.forEach(function (section) {
      var body = section.querySelector("tbody");
      if (!body) { return; }
      var list = Array.prototype.slice.call(body.querySelectorAll("tr[data-status]"));
      list.sort(function (a, b) {
        var ka = key(a), kb = key(b);
        return ka[0] - kb[0] || ka[1] - kb[1];
      });
      list.forEach(function (row) { body.appendChild(row); });
    });
  }

  function apply() {
    var wanted = {};
    boxes.forEach(function (box) { wanted[box.value] = box.checked; });
    var words = query.value.toLowerCase().split(/\s+/).filter(Boolean);
    var count = 0;
    rows.forEach(function (row) {
      var text = row.textContent.toLowerCase();
      var ok = wanted[row.getAttribute("data-status")] && words.every(function (w) { return text.indexOf(w) !== -1; });
      row.hidden = !ok;
      if (ok) { count += 1; }
    });
    sections.forEach(function (section) {
      section.hidden = !section.querySelector("tr[data-status]:not([hidden])");
    });
    reorder();
    shown.textContent = count + " of " + rows.length + " dimensions shown";
    toAddress();
  }

  function cell(text) {
    var t = text.replace(/\s+/g, " ").trim();
    if (/^[=+\-@\t\r]/.test(t)) { t = "'" + t; }  // a spreadsheet must not run a cell
    return /[",\r\n]/.test(t) ? "\"" + t.replace(/"/g, "\"\"") + "\"" : t;
  }

  function download() {
    var lines = [["id", "category", "status", "dimension", "bar", "ours", "sota_bar", "claim"].join(",")];
    sections.forEach(function (section) {
      Array.prototype.forEach.call(section.querySelectorAll("tbody tr[data-status]"), function (row) {
        if (row.hidden) { return; }
        var cells = row.querySelectorAll("td, th");
        lines.push([row.getAttribute("data-id"), row.getAttribute("data-category"), row.getAttribute("data-status"),
                    cells[1].innerText, cells[2].innerText, cells[3].innerText, cells[4].innerText,
                    cells[5].innerText].map(cell).join(","));
      });
    });
    var blob = new Blob([lines.join("\r\n") + "\r\n"], {type: "text/csv;charset=utf-8"});
    var link = document.createElement("a");
    link.href = URL.createObjectURL(blob);
    link.download = "scorecard-view.csv";
    document.body.appendChild(link);
    link.click();
    setTimeout(function () { URL.revokeObjectURL(link.href); link.remove(); }, 0);
  }

  // A count in the first screen's table: the view filtered to its status, at its category's section.
  Array.prototype.forEach.call(document.querySelectorAll(".status-counts a[data-status]"), function (link) {
    link.addEventListener("click", function (event) {
      event.preventDefault();
      var status = link.getAttribute("data-status");
      boxes.forEach(function (box) { box.checked = box.value === status; });
      query.value = "";
      apply();
      var target = document.getElementById(link.getAttribute("data-category") || "filters") || form;
      target.scrollIntoView();
    });
  });
  form.addEventListener("input", apply);
  form.addEventListener("change", apply);
  form.addEventListener("submit", function (event) { event.preventDefault(); });
  document.getElementById("download").addEventListener("click", download);
  fromAddress();
  apply();
}());
