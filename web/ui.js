// What both pages share: the toast that shows an error reply (or a notice, such as "engine
// restarted") from the server for a few seconds.
"use strict";

window.pageUi = (() => {
  let toastTimer = null;
  function showError(text) {
    const t = document.getElementById("toast");
    t.textContent = text;
    t.classList.remove("hidden");
    clearTimeout(toastTimer);
    toastTimer = setTimeout(() => t.classList.add("hidden"), 4000);
  }
  return { showError, showNotice: showError };
})();
