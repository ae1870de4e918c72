// Status filter and text search on the index. The page is complete without this script:
// it only reveals the filter form and hides rows that do not match.
(function () {
  "use strict";
  var form = document.getElementById("filters");
  if (!form) { return; }
  var rows = Array.prototype.slice.call(document.querySelectorAll("tr[data-status]"));
  var sections = Array.prototype.slice.call(document.querySelectorAll("section.category"));
  var query = document.getElementById("q");
  var shown = document.getElementById("shown");
  form.hidden = false;
  function apply() {
    var wanted = {};
    Array.prototype.forEach.call(form.querySelectorAll("input[name=status]"), function (box) { wanted[box.value] = box.checked; });
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
    shown.textContent = count + " of " + rows.length + " dimensions shown";
  }
  form.addEventListener("input", apply);
  form.addEventListener("submit", function (event) { event.preventDefault(); });
  apply();
}());
