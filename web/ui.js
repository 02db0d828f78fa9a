// What both pages share: the toast that shows an error reply (red) or a notice (neutral, such as
// "engine restarted") from the server for a few seconds. It sits at the bottom of the window, or at the
// top when it would cover a banner (the engine's Retry button, say).
"use strict";

window.pageUi = (() => {
  let toastTimer = null;
  const overlap = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;

  // Puts the shown toast where it covers no visible banner; again whenever the page changes
  // under it (a banner shown, the page scrolled or resized).
  function placeToast() {
    const t = document.getElementById("toast");
    if (!t || t.classList.contains("hidden")) return;
    t.classList.remove("toast-top");
    const banners = [...document.querySelectorAll(".banner")].filter((b) => b.getClientRects().length > 0);
    const r = t.getBoundingClientRect();
    if (banners.some((b) => overlap(r, b.getBoundingClientRect()))) t.classList.add("toast-top");
  }

  // An error: the red toast. A notice (the engine busy or restarted): the same place, in a
  // neutral style.
  function showError(text, notice) {
    const t = document.getElementById("toast");
    t.textContent = text;
    t.classList.toggle("toast-notice", !!notice);
    t.classList.remove("hidden");
    placeToast();
    clearTimeout(toastTimer);
    toastTimer = setTimeout(() => t.classList.add("hidden"), 4000);
  }
  window.addEventListener("scroll", placeToast, { passive: true });
  window.addEventListener("resize", placeToast);
  const showNotice = (text) => showError(text, true);
  return { showError, showNotice, placeToast };
})();
