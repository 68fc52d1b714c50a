(function () {
  "use strict";
  var cur = document.getElementById("cur-rule");
  function open(id, focus) {
    var card = document.getElementById("technique-" + id);
    if (!card) return false;
    card.open = true;
    card.classList.add("flash");
    setTimeout(function () { card.classList.remove("flash"); }, 1200);
    card.scrollIntoView({ block: "nearest" });
    if (focus) card.querySelector("summary").focus();
    return true;
  }
  document.addEventListener("click", function (ev) {
    var a = ev.target.closest ? ev.target.closest("a[data-tech]") : null;
    if (!a) return;
    if (open(a.getAttribute("data-tech"), ev.detail === 0)) {
      ev.preventDefault();
      ev.stopPropagation();  // the step is not re-shown: the card is what was asked for
    }
  }, true);
  // the current-step panel names the rule as text: make it the same link as the list's
  function linkCurrent() {
    if (!cur) return;
    var li = document.querySelector("#steps li.current a.rule");
    if (!li || cur.querySelector("a")) return;
    var a = document.createElement("a");
    a.href = li.getAttribute("href");
    a.setAttribute("data-tech", li.getAttribute("data-tech"));
    a.title = "what this technique is";
    a.textContent = cur.textContent;
    cur.textContent = "";
    cur.appendChild(a);
  }
  new MutationObserver(linkCurrent).observe(document.body,
    { attributes: true, attributeFilter: ["data-current"] });
  linkCurrent();
  var m = /^#technique-(.+)$/.exec(location.hash);
  if (m) open(m[1], false);
})();
