// Shared by every page: the page's language and its text, the session (who
// is signed in, refreshing it before it expires), API calls with the error
// envelope turned into exceptions, small DOM and formatting helpers, the
// colour-scheme toggle, the language switch and the summary of a form's
// inputs for printing.

/** The page's language, as the server rendered it. */
export const lang = document.documentElement.lang || 'en';
const dict = /** @type {Record<string, string>} */ (JSON.parse(document.getElementById('i18n')?.textContent || '{}'));

/** The text of key in the page's language, {name} filled from vars. */
export function t(key, vars) {
  let s = dict[key] ?? key;
  if (vars) s = s.replace(/\{(\w+)\}/g, (m, k) => (k in vars ? String(vars[k]) : m));
  return s;
}

/** t of key as a list of text and the nodes of vars, for a sentence with elements in it. */
export function tNodes(key, vars) {
  return t(key).split(/\{(\w+)\}/).map((s, i) => (i % 2 ? vars[s] : s)).flat();
}

/** Attributes for text the API writes in English only: lang="en" on a page in another language. */
export const apiText = () => (lang === 'en' ? {} : { lang: 'en' });

/** A country's name in the page's language from its ISO 3166 code; fallback when the browser has none. */
export function countryName(code, fallback) {
  if (lang === 'en' || !code) return fallback;
  try { return new Intl.DisplayNames([lang], { type: 'region' }).of(code) || fallback; } catch { return fallback; }
}

/** t of key.one or key.other by the plural rule for n ({n} is n). */
export function tn(key, n, vars) {
  return t(key + (new Intl.PluralRules(lang).select(n) === 'one' ? '.one' : '.other'), { n: num(n), ...vars });
}

/** @typedef {{signedIn:boolean,user?:string,tier?:string,expires?:number,refreshable:boolean,mode:string}} Session */

let session = /** @type {Session|null} */ (null);
let refreshTimer = 0;
let refreshing = /** @type {Promise<boolean>|null} */ (null);
const listeners = [];

/** An API error: HTTP status, the envelope's code, error, details, retryAfter. */
export class APIError extends Error {
  constructor(status, body) {
    super((body && (body.error || body.message)) || `HTTP ${status}`);
    this.status = status;
    this.code = body && body.code;
    this.details = (body && body.details) || [];
    this.retryAfter = body && body.retryAfter;
    this.detail = body && body.message;
  }
}

/** Runs fn with the session whenever it is known or changes. */
export function onSession(fn) {
  listeners.push(fn);
  if (session) fn(session);
}

function setSession(s) {
  session = s;
  clearTimeout(refreshTimer);
  if (s.signedIn && s.expires) {
    // Refresh a minute before expiry (or half-way for very short sessions).
    const left = s.expires * 1000 - Date.now();
    const lead = Math.min(60000, left / 2);
    refreshTimer = setTimeout(() => { refresh(); }, Math.max(1000, left - lead));
  }
  showWho(s);
  for (const fn of listeners) fn(s);
}

function showWho(s) {
  const signin = document.getElementById('signin');
  const user = document.getElementById('user');
  const out = document.getElementById('signout');
  if (!signin || !user || !out) return;
  signin.hidden = s.signedIn;
  user.hidden = out.hidden = !s.signedIn;
  user.textContent = s.signedIn ? `${s.user} (${s.tier})` : '';
  if (!s.signedIn) signin.setAttribute('href', '/auth/login?next=' + encodeURIComponent(location.pathname + location.search));
}

let loading = null;
/** The session, loaded once per page (refreshed first when it lapsed but can be renewed). */
export function loadSession() {
  if (!loading) loading = fetchSession();
  return loading;
}

async function fetchSession() {
  try {
    const r = await fetch('/auth/session', { credentials: 'same-origin', cache: 'no-store' });
    let s = await r.json();
    if (!s.signedIn && s.refreshable) {
      await refresh();
      return session;
    }
    setSession(s);
  } catch {
    setSession({ signedIn: false, refreshable: false, mode: document.body.dataset.mode || 'none' });
  }
  return session;
}

/** Renews the session once (concurrent callers share the attempt). False: signed out. */
export function refresh() {
  if (refreshing) return refreshing;
  refreshing = (async () => {
    try {
      const r = await fetch('/auth/refresh', { method: 'POST', credentials: 'same-origin' });
      const s = await r.json().catch(() => ({ signedIn: false, refreshable: false, mode: 'none' }));
      setSession(s);
      if (!r.ok) notice(t('js.sessionEnded'), 'warn');
      return r.ok;
    } catch {
      return false;
    } finally {
      refreshing = null;
    }
  })();
  return refreshing;
}

/**
 * Calls the API. Success: the envelope's data (and meta on lists, as
 * result.meta; an answer's ETag as result.etag). Failure: throws APIError.
 * A 401 TOKEN_EXPIRED refreshes the session once and retries.
 */
export async function api(method, path, body, retried = false, headers = {}, tries = 0) {
  const init = /** @type {RequestInit & {headers: Record<string, string>}} */ ({ method, credentials: 'same-origin', headers: { Accept: 'application/json', ...headers } });
  if (body !== undefined) {
    init.headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  let r;
  try {
    r = await fetch('/api/v1' + path, init);
  } catch {
    throw new APIError(0, { error: t('js.unreachable') });
  }
  if (r.status === 204) return null;
  const json = await r.json().catch(() => null);
  if (r.ok && json && json.success) {
    const d = json.data;
    if (json.meta && d && typeof d === 'object') Object.defineProperty(d, 'meta', { value: json.meta });
    const tag = r.headers.get('ETag');
    if (tag && d && typeof d === 'object') Object.defineProperty(d, 'etag', { value: tag });
    return d;
  }
  // Too many expensive requests at once (one caller may run only a few):
  // refused before any work, so asked again when retryAfter says, twice at most.
  if (r.status === 503 && json && json.retryAfter > 0 && json.retryAfter <= 5 && tries < 2) {
    await new Promise((ok) => setTimeout(ok, json.retryAfter * 1000));
    return api(method, path, body, retried, headers, tries + 1);
  }
  if (r.status === 401 && json && json.code === 'TOKEN_EXPIRED' && !retried) {
    if (await refresh()) return api(method, path, body, true, headers);
  }
  throw new APIError(r.status, json);
}

/** A readable message for an error, with the retry time of a 429. */
export function describe(err) {
  if (err instanceof APIError) {
    if (err.status === 429) {
      const s = err.retryAfter || 1;
      return tn('js.tooMany', s, { at: new Date(Date.now() + s * 1000).toLocaleTimeString(locale()) });
    }
    if (err.status === 401) return t('js.notSignedIn');
    if (err.code === 'SUBSCRIPTION_REQUIRED') return t('js.needsPro');
    let m = err.message;
    if (err.detail && err.detail !== m) m += ': ' + err.detail;
    return m;
  }
  return String(err && err.message ? err.message : err);
}

/** Shows a state (loading, error, empty) in a status element. */
export function status(el, kind, text) {
  if (!el) return;
  el.hidden = !text;
  el.className = 'status ' + (kind || '');
  el.textContent = text || '';
  if (kind === 'error') el.setAttribute('role', 'alert'); else el.setAttribute('role', 'status');
}

/** Page-wide notice at the top of main. */
export function notice(text, kind) {
  const n = document.getElementById('notice');
  if (!n) return;
  n.hidden = !text;
  n.textContent = text || '';
  n.className = 'notice ' + (kind || '');
}

/**
 * Puts each validation detail on the input whose data-path (or name) is
 * its path; returns the details no input took.
 */
export function fieldErrors(form, details) {
  clearFieldErrors(form);
  const rest = [];
  for (const d of details || []) {
    const input = form.querySelector(`[data-path="${CSS.escape(d.path)}"]`) || form.querySelector(`[name="${CSS.escape(d.path)}"]`);
    if (!input) { rest.push(d); continue; }
    setFieldError(input, d.message);
  }
  const first = form.querySelector('[aria-invalid="true"]');
  if (first) first.focus();
  return rest;
}

/**
 * Shows message on input. A rate the page takes in percent (data-pct, or
 * data-kind="pct") gets the API's bounds, given as fractions, in percent:
 * "must be at most 0.2" reads "must be at most 20%".
 */
export function setFieldError(input, message) {
  if (input.hasAttribute('data-pct') || input.dataset.kind === 'pct') {
    message = String(message).replace(/-?\d*\.?\d+/g, (n) => `${+(Number(n) * 100).toFixed(6)}%`);
  }
  input.setAttribute('aria-invalid', 'true');
  let msg = document.getElementById(input.id + '-error');
  if (!msg) {
    msg = el('p', { class: 'field-error', id: input.id + '-error' });
    input.insertAdjacentElement('afterend', msg);
  }
  msg.textContent = message;
  const desc = (input.getAttribute('aria-describedby') || '').split(' ').filter(Boolean);
  if (!desc.includes(msg.id)) desc.push(msg.id);
  input.setAttribute('aria-describedby', desc.join(' '));
}

export function clearFieldErrors(form) {
  for (const i of form.querySelectorAll('[aria-invalid="true"]')) i.removeAttribute('aria-invalid');
  for (const m of form.querySelectorAll('.field-error')) m.remove();
}

/** el('p', {class: 'x'}, 'text', child) builds an element. */
export function el(tag, attrs, ...children) {
  const svg = ['svg', 'g', 'path', 'line', 'rect', 'text', 'title', 'desc', 'polyline', 'circle'].includes(tag);
  const e = svg ? document.createElementNS('http://www.w3.org/2000/svg', tag) : document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith('on') && typeof v === 'function') e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    e.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return e;
}

// Amounts are formatted in the user's locale (their settings, else the
let fmtLocale = '';
let fmtCurrency = 'USD';
let chosen = '';
const moneyFmt = new Map();

/**
 * The locale amounts are formatted in: the settings' (whose language the
 * page follows), else the browser's when it is in the page's language,
 * else the page's language's usual one.
 */
export function locale() {
  if (fmtLocale) return fmtLocale;
  const nav = navigator.language || '';
  if (nav.toLowerCase().startsWith(lang)) return nav;
  return lang === 'de' ? 'de-DE' : 'en-US';
}

/** The currency amounts are in when a page does not say otherwise. */
export function currency() {
  return fmtCurrency;
}

export function currencyName(code) {
  try {
    const name = new Intl.DisplayNames([lang], { type: 'currency' }).of(code);
    return name && name !== code ? `${name} (${code})` : code;
  } catch { return code; }
}

export function chosenCurrency() {
  return chosen;
}

/** Sets the locale and currency of amounts; an invalid one is ignored. */
export function setFormat(loc, cur) {
  if (loc) {
    try { new Intl.NumberFormat(loc); fmtLocale = loc; } catch { /* keep the browser's */ }
  }
  if (cur && /^[A-Z]{3}$/.test(cur)) fmtCurrency = cur;
  moneyFmt.clear();
}

/**
 * The signed-in user's locale and currency, from their profile and
 * settings, set as the format of amounts; the browser's and US dollars for
 * a visitor.
 */
export async function loadFormat() {
  const s = await loadSession();
  if (!s || !s.signedIn) return { locale: locale(), currency: fmtCurrency };
  const [p, st] = await Promise.all([api('GET', '/user/profile').catch(() => null), api('GET', '/user/settings').catch(() => null)]);
  if (followLocale(st?.locale)) return new Promise(() => {});
  chosen = p?.currency || st?.baseCurrency || '';
  setFormat(st?.locale, chosen);
  return { locale: locale(), currency: fmtCurrency };
}

/** Formats an amount: money(1234.5, 'EUR') -> "€1,235" (in en-US). */
export function money(v, cur = fmtCurrency) {
  if (v === null || v === undefined || Number.isNaN(v)) return '—';
  const key = cur + ' ' + locale();
  let f = moneyFmt.get(key);
  if (!f) {
    try {
      f = new Intl.NumberFormat(locale(), { style: 'currency', currency: cur, maximumFractionDigits: 0 });
    } catch {
      f = new Intl.NumberFormat(locale(), { maximumFractionDigits: 0 });
    }
    moneyFmt.set(key, f);
  }
  return f.format(v);
}

/** An amount in three figures, no currency sign (a table that says its currency): 352K, 1.23M; 352.000, 1,23 Mio. */
export function compact(v) {
  if (v === null || v === undefined || Number.isNaN(v)) return '—';
  return new Intl.NumberFormat(locale(), { notation: 'compact', maximumSignificantDigits: 3 }).format(v);
}

/** Formats a fraction as a percentage: pct(0.0412) -> "4.1%" (en-US), "4,1 %" (de-DE). */
export function pct(v, digits = 1) {
  if (v === null || v === undefined || Number.isNaN(v)) return '—';
  return new Intl.NumberFormat(locale(), { style: 'percent', maximumFractionDigits: digits }).format(v);
}

export function num(v, digits = 0) {
  if (v === null || v === undefined) return '—';
  return v.toLocaleString(locale(), { maximumFractionDigits: digits });
}

/** Offers text as a file download. */
export function download(name, type, text) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = el('a', { href: url, download: name, hidden: true });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/**
 * The control named name in form. A control named like one of the form's own
 * properties (id, name, style) shadows it only by the browser's named-property
 * override, which a reader (and tsc) takes for the form's attribute; asking
 * the form's elements says which is meant.
 * @param {HTMLFormElement} form
 * @param {string} name
 */
export function control(form, name) {
  return /** @type {HTMLInputElement} */ (form.elements.namedItem(name));
}

/** Reads a number input: undefined when empty. */
export function numberOf(input) {
  const v = input.value.trim();
  if (v === '') return undefined;
  const n = Number(v);
  return Number.isFinite(n) ? n : v; // a non-number goes to the API, which names the field
}

/** Requires a session: a signed-out visitor sees a sign-in link instead of the page. */
export async function requireSession(section) {
  const s = await loadSession();
  if (!s.signedIn) {
    const box = el('div', { class: 'card' },
      el('p', {}, t('js.signInToUse')),
      el('p', {}, el('a', { href: '/auth/login?next=' + encodeURIComponent(location.pathname), class: 'button' }, t('nav.signin'))));
    section.replaceChildren(box);
    return null;
  }
  return s;
}

const languages = ['en', 'de'];
let settingsLang = '';

function setLangCookie(l) {
  document.cookie = `fiplan_lang=${l}; path=/; max-age=31536000; samesite=lax`;
}

/**
 * The page speaks the language of the settings' locale: when it does not,
 * the language cookie follows the settings and the page loads again (true).
 */
export function followLocale(loc) {
  const want = String(loc || '').slice(0, 2).toLowerCase();
  settingsLang = want;
  if (!languages.includes(want) || want === lang) return false;
  setLangCookie(want);
  location.reload();
  return true;
}

// The language switch keeps the page's query (a calculator plan); signed
// in, it also sets the settings' locale, which the page follows.
const sw = /** @type {HTMLAnchorElement|null} */ (document.getElementById('lang-switch'));
if (sw) {
  const to = sw.getAttribute('hreflang') || 'en';
  const q = new URLSearchParams(location.search);
  q.set('lang', to);
  sw.href = location.pathname + '?' + q.toString();
  sw.addEventListener('click', async (e) => {
    const s = session;
    if (!s || !s.signedIn || settingsLang === to) return;
    e.preventDefault();
    await api('PATCH', '/user/settings', { locale: to === 'de' ? 'de-DE' : 'en-US' }).catch(() => null);
    location.href = sw.href;
  });
}

// The colour scheme: the system's until the toggle chooses one, which
// theme.js sets again before the next page's first paint. The toggle names
// the scheme it switches to; the style sheet shows that name.
const themeBtn = document.getElementById('theme-toggle');
themeBtn?.addEventListener('click', () => {
  const set = document.documentElement.dataset.theme;
  const next = (set ? set === 'dark' : matchMedia('(prefers-color-scheme: dark)').matches) ? 'light' : 'dark';
  document.documentElement.dataset.theme = next;
  try { localStorage.setItem('fiplan-theme', next); } catch { /* kept for this page only */ }
  window.dispatchEvent(new Event('themechange'));
});

/**
 * Before printing, each form marked data-summary gets, after it, a list of
 * its filled inputs (label: value), shown only on paper, where the form is
 * left out.
 */
function summariseForms() {
  for (const form of document.querySelectorAll('form[data-summary]')) {
    const rows = [];
    for (const c of /** @type {NodeListOf<HTMLInputElement|HTMLSelectElement>} */ (form.querySelectorAll('input, select'))) {
      if (c.type === 'hidden' || c.disabled || c.closest('[hidden]')) continue;
      const name = (c.labels?.[0]?.textContent || c.getAttribute('aria-label') || '').trim();
      if ((c.type === 'checkbox' || c.type === 'radio') && !(/** @type {HTMLInputElement} */ (c).checked)) continue;
      const value = c instanceof HTMLSelectElement ? (c.value ? c.selectedOptions[0]?.textContent || '' : '')
        : c.type === 'checkbox' || c.type === 'radio' ? '✓' : c.value.trim();
      if (!name || !value) continue;
      rows.push(el('dt', {}, name), el('dd', {}, value));
    }
    const id = form.id + '-summary';
    document.getElementById(id)?.remove();
    form.insertAdjacentElement('afterend', el('dl', { id, class: 'inputs print-only', 'aria-label': t('js.inputs') }, rows));
  }
}
window.addEventListener('beforeprint', summariseForms);

loadSession();
