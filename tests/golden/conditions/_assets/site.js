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
    if (sort.value === "gap") { return [number(row, "data-gap", Infinity), rank]; }
    if (sort.value === "gap-best") { return [-number(row, "data-gap", -Infinity), rank]; }
    if (sort.value === "age") { return [-number(row, "data-age", -Infinity), rank]; }
    return [rank, 0];
  }

  // A sort puts every row in one table across the categories ("all trails, worst first"); ledger order puts each
  // row back in its category's table.
  var homes = rows.map(function (row) { return row.parentNode; });
  var order = rows.map(function (row, i) { return i; });
  var joined = null;

  function joinedTable() {
    if (joined) { return joined; }
    var first = document.querySelector("section.category table.scorecard");
    joined = document.createElement("section");
    joined.className = "sorted";
    joined.id = "sorted";
    joined.setAttribute("aria-label", "All dimensions, sorted");
    var heading = document.createElement("h2");
    heading.textContent = "All dimensions, sorted";
    var wrap = document.createElement("div");
    wrap.className = "table-wrap";
    var table = document.createElement("table");
    table.className = "scorecard";
    table.appendChild(first.querySelector("thead").cloneNode(true));
    table.appendChild(document.createElement("tbody"));
    wrap.appendChild(table);
    joined.appendChild(heading);
    joined.appendChild(wrap);
    sections[0].parentNode.insertBefore(joined, sections[0]);
    return joined;
  }

  function reorder() {
    var sorted = sort.value !== "";
    if (sorted) {
      var body = joinedTable().querySelector("tbody");
      var list = rows.slice();
      list.sort(function (a, b) {
        var ka = key(a), kb = key(b);
        return ka[0] - kb[0] || ka[1] - kb[1] || rows.indexOf(a) - rows.indexOf(b);
      });
      list.forEach(function (row) { body.appendChild(row); });
    } else {
      order.forEach(function (i) { homes[i].appendChild(rows[i]); });
    }
    if (joined) { joined.hidden = !sorted; }
    return sorted;
  }

  // The first screen's counts and the overview follow the filters: a count of rows shown, a row hidden with its
  // dimension's.
  var cells = Array.prototype.slice.call(document.querySelectorAll(".status-counts a[data-status]"));
  var marks = Array.prototype.slice.call(document.querySelectorAll(".gaps li[data-id]"));

  function counts() {
    var shownIds = {};
    rows.forEach(function (row) { if (!row.hidden) { shownIds[row.getAttribute("data-id")] = true; } });
    cells.forEach(function (cell) {
      if (!cell.hasAttribute("data-total")) { cell.setAttribute("data-total", cell.textContent); }
      var status = cell.getAttribute("data-status"), category = cell.getAttribute("data-category");
      var n = rows.filter(function (row) {
        return !row.hidden && row.getAttribute("data-status") === status &&
          (!category || row.getAttribute("data-category") === category);
      }).length;
      var total = cell.getAttribute("data-total");
      cell.textContent = String(n) === total ? total : n + " of " + total;
    });
    marks.forEach(function (mark) { mark.hidden = !shownIds[mark.getAttribute("data-id")]; });
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
    var sorted = reorder();
    sections.forEach(function (section) {
      section.hidden = sorted || !section.querySelector("tr[data-status]:not([hidden])");
    });
    counts();
    shown.textContent = count + " of " + rows.length + " dimensions shown";
    toAddress();
  }

  function cell(text) {
    var t = text.replace(/\s+/g, " ").trim();
    if (/^[=+\-@\t\r]/.test(t)) { t = "'" + t; }  // a spreadsheet must not run a cell
    return /[",\r\n]/.test(t) ? "\"" + t.replace(/"/g, "\"\"") + "\"" : t;
  }

  function cellValue(td) {  // a number cell's value, without its flags
    var value = td.querySelector(".value");
    return (value || td).innerText;
  }

  function download() {
    var lines = [["id", "category", "status", "dimension", "bar", "ours", "against_the_bar", "leader"].join(",")];
    var shownRows = Array.prototype.slice.call(document.querySelectorAll("tbody tr[data-status]"));
    shownRows.forEach(function (row) {
      if (row.hidden || row.closest("[hidden]")) { return; }
      var cells = row.querySelectorAll("td, th");
      lines.push([row.getAttribute("data-id"), row.getAttribute("data-category"), row.getAttribute("data-status"),
                  cells[0].querySelector("a").innerText, cellValue(cells[2]), cellValue(cells[3]), cells[4].innerText,
                  cells[5].innerText].map(cell).join(","));
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
