// The page's words. The server sends the catalogue of the language it chose for this person
// (/i18n/messages.js: window.LASCA_I18N = {lang, languages, messages}; the account's setting,
// then the lasca_lang cookie, then Accept-Language, then English), and every script reads it
// through i18n.t(key, params):
//   - a message is a string with {name} placeholders, or an object of plural forms
//     ({"one": "...", "other": "..."}) chosen by params.count with the language's plural rules;
//   - numbers in params are written the language's way (1,234 / 1.234).
// Elements written in the HTML get their words from attributes: data-i18n (text),
// data-i18n-html (markup from the catalogue itself: the rules' links), data-i18n-title,
// data-i18n-aria-label, data-i18n-placeholder, data-i18n-alt.
// What the server says to a person comes as a key of the server area with its placeholders'
// values and the English text ({"key", "params", "message" or "text"}): i18n.server(said) gives
// it in the page's language (the English text when the catalogue lacks the key).
// A select with data-lang-picker lists the languages; choosing one keeps it (cookie, and the
// account's setting when signed in) and reloads the page.
// Every key a page uses is written whole at its call (t("common.nav.games")), so that
// scripts/i18n_check.py finds it: a key missing from a catalogue fails the build.
"use strict";

window.i18n = (() => {
  const data = window.LASCA_I18N || { lang: "en", languages: [], messages: {} };
  const rules = new Intl.PluralRules(data.lang);

  function format(value) {
    if (typeof value === "number") return value.toLocaleString(data.lang);
    return String(value);
  }

  function t(key, params) {
    let text = data.messages[key];
    if (text === undefined) {
      console.error(`i18n: no message ${key}`);
      return key;
    }
    if (typeof text === "object") {
      const n = params && typeof params.count === "number" ? params.count : 0;
      text = text[rules.select(n)] || text.other;
    }
    if (!params) return text;
    return text.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? format(params[name]) : whole));
  }

  function server(said) {
    if (!said) return "";
    if (typeof said.key === "string" && said.key in data.messages) return t(said.key, said.params || {});
    return said.message || said.text || "";
  }

  const attributes = ["title", "aria-label", "placeholder", "alt"];

  function apply(root) {
    for (const e of root.querySelectorAll("[data-i18n]")) e.textContent = t(e.dataset.i18n);
    for (const e of root.querySelectorAll("[data-i18n-html]")) e.innerHTML = t(e.dataset.i18nHtml);
    for (const name of attributes) {
      for (const e of root.querySelectorAll(`[data-i18n-${name}]`))
        e.setAttribute(name, t(e.getAttribute(`data-i18n-${name}`)));
    }
  }

  function setLanguage(lang) {
    document.cookie = `lasca_lang=${encodeURIComponent(lang)}; Path=/; Max-Age=31536000; SameSite=Lax`;
    // The account keeps it too (a guest's answer is 401 and changes nothing).
    fetch("/api/account/lang", {
      method: "POST", credentials: "same-origin",
      headers: { "Content-Type": "application/json" }, body: JSON.stringify({ lang }),
    }).catch(() => {}).finally(() => location.reload());
  }

  function fillPickers() {
    for (const select of document.querySelectorAll("select[data-lang-picker]")) {
      select.innerHTML = "";
      for (const l of data.languages) {
        const o = document.createElement("option");
        o.value = l.code;
        o.textContent = l.name;
        o.lang = l.code;
        o.selected = l.code === data.lang;
        select.appendChild(o);
      }
      select.addEventListener("change", () => setLanguage(select.value));
    }
  }

  document.documentElement.lang = data.lang;
  const ready = () => { apply(document); fillPickers(); };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", ready);
  else ready();
  return { lang: data.lang, languages: data.languages, t, server, apply, setLanguage };
})();
