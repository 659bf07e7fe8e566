// Profile, preferences, notifications, API keys, export and erasure.
import { api, describe, status, fieldErrors, clearFieldErrors, el, download, requireSession, control, t, locale, loadFormat, followLocale } from './common.js';

/**
 * Fills a form's inputs from a document. A rate (data-kind="pct") is shown
 * in percent, as on the calculator: the API's 0.07 is 7.
 */
function fill(form, doc) {
  for (const input of form.querySelectorAll('[data-path]')) {
    const v = doc[input.name];
    if (v === null || v === undefined) input.value = '';
    else if (input.dataset.kind === 'pct' && typeof v === 'number') input.value = String(+(v * 100).toFixed(6));
    else input.value = v;
  }
}

/** Reads a form's inputs: empty is null (cleared), numbers are numbers, percent becomes a fraction. */
function read(form) {
  const body = {};
  for (const input of form.querySelectorAll('[data-path]')) {
    const v = input.value.trim();
    const kind = input.dataset.kind;
    const n = Number(v);
    if (v === '') body[input.name] = null;
    else if (kind === 'pct') body[input.name] = Number.isFinite(n) ? Math.round(n * 1e6) / 1e8 : v;
    else if (kind === 'int' || kind === 'num') body[input.name] = Number.isFinite(n) ? n : v;
    else body[input.name] = v;
  }
  return body;
}

/**
 * A document form: load with GET, save with PATCH (then after, given the
 * saved document).
 * @param {string} id
 * @param {string} path
 * @param {string[]} [required]
 * @param {(saved: any) => Promise<unknown>} [after]
 */
function docForm(id, path, required = [], after = async () => {}) {
  const form = /** @type {HTMLFormElement} */ (document.getElementById(id));
  const st = form.querySelector('.status');
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    clearFieldErrors(form);
    const body = read(form);
    for (const k of required) if (body[k] === null) delete body[k];
    status(st, 'loading', t('js.saving'));
    try {
      const saved = await api('PATCH', path, body);
      await after(saved);
      fill(form, saved);
      status(st, '', t('js.saved'));
      if ('locale' in saved) followLocale(saved.locale);
    } catch (err) {
      if (err.details?.length) fieldErrors(form, err.details);
      status(st, 'error', describe(err));
    }
  });
  return async () => {
    status(st, 'loading', t('js.loading'));
    try {
      fill(form, await api('GET', path));
      status(st, '', '');
    } catch (err) {
      status(st, 'error', describe(err));
    }
  };
}

// One currency: the profile's is the one shown, and the settings' base
// currency (of the asset summary and the FI score) follows it.
const loadProfile = docForm('profile', '/user/profile', [], (p) => api('PATCH', '/user/settings', { baseCurrency: p.currency }));
const loadSettings = docForm('settings', '/user/settings', ['expectedReturn', 'inflationRate', 'withdrawalRate', 'units']);

// The switches of the events webhooks also send are named as the webhooks name them.
const notifNames = { milestones: t('set.n.milestones'), checkins: t('hk.e.checkin.due'), guardrails: t('hk.e.guardrail.crossed'), offTrack: t('hk.e.plan.offtrack'), dataUpdates: t('hk.e.data.updated'), weeklySummary: t('set.n.weekly'), productNews: t('set.n.news') };
const nform = /** @type {HTMLFormElement} */ (document.getElementById('notifications'));
async function loadNotifications() {
  const st = nform.querySelector('.status');
  status(st, 'loading', t('js.loading'));
  try {
    const n = await api('GET', '/user/notifications');
    document.getElementById('notif-fields').replaceChildren(...Object.entries(n).flatMap(([k, ch]) =>
      Object.entries(ch).map(([c, on]) => el('label', {}, el('input', { type: 'checkbox', name: `${k}.${c}`, checked: on }), t('set.n.by', { what: notifNames[k] || k, channel: t('set.ch.' + c) === 'set.ch.' + c ? c : t('set.ch.' + c) })))));
    status(st, '', '');
  } catch (err) {
    status(st, 'error', describe(err));
  }
}
nform.addEventListener('submit', async (e) => {
  e.preventDefault();
  const st = nform.querySelector('.status');
  const body = {};
  for (const box of /** @type {NodeListOf<HTMLInputElement>} */ (nform.querySelectorAll('input[type=checkbox]'))) {
    const [k, c] = box.name.split('.');
    (body[k] ||= {})[c] = box.checked;
  }
  status(st, 'loading', t('js.saving'));
  try {
    await api('PATCH', '/user/notifications', body);
    status(st, '', t('js.saved'));
  } catch (err) {
    status(st, 'error', describe(err));
  }
});

// Email notifications go to a verified address: the button mails the
// profile's address a link; each refusal is said in the page's language.
const vst = document.getElementById('verify-status');
document.getElementById('verify-email').addEventListener('click', async () => {
  status(vst, 'loading', t('hk.sending'));
  try {
    const r = await api('POST', '/user/email/verify');
    status(vst, '', t('set.verifySent', { email: r.email }));
  } catch (err) {
    const why = { 400: 'set.verifyNoAddress', 503: 'set.verifyOff', 429: 'set.verifyWait' }[err.status];
    status(vst, 'error', why ? t(why) : describe(err));
  }
});

// API keys.
const kform = /** @type {HTMLFormElement} */ (document.getElementById('key-form'));
const kst = document.getElementById('key-status');
const when = (d) => (d ? new Date(d).toLocaleString(locale()) : t('set.never'));
async function loadKeys() {
  try {
    const keys = await api('GET', '/user/api-keys');
    const tbl = document.getElementById('keys');
    if (!keys.length) { tbl.replaceChildren(el('caption', {}, t('set.noKeys'))); return; }
    tbl.replaceChildren(el('caption', { class: 'sr' }, t('set.yourKeys')),
      el('thead', {}, el('tr', {}, [t('js.name'), t('set.key'), t('set.created'), t('set.lastUsed'), ''].map((h, i) => el('th', { scope: 'col', class: i < 2 ? 'left' : '' }, h || el('span', { class: 'sr' }, t('js.actions')))))),
      el('tbody', {}, keys.map((k) => el('tr', { 'data-id': k.id },
        el('td', { class: 'left', 'data-label': t('js.name') }, k.name), el('td', { class: 'left', 'data-label': t('set.key') }, el('code', {}, k.hint)),
        el('td', { 'data-label': t('set.created') }, when(k.createdAt)), el('td', { 'data-label': t('set.lastUsed') }, when(k.lastUsedAt)),
        el('td', { class: 'actions' }, el('button', { type: 'button', class: 'danger small', 'aria-label': t('set.revokeN', { name: k.name }), onclick: () => revoke(k) }, t('set.revoke')))))));
  } catch (err) {
    status(kst, 'error', describe(err));
  }
}
async function revoke(k) {
  if (!confirm(t('set.confirmRevoke', { name: k.name }))) return;
  status(kst, 'loading', t('set.revoking'));
  try {
    await api('DELETE', '/user/api-keys/' + encodeURIComponent(k.id));
    status(kst, '', t('set.revoked', { name: k.name }));
    await loadKeys();
  } catch (err) {
    status(kst, 'error', describe(err));
  }
}
kform.addEventListener('submit', async (e) => {
  e.preventDefault();
  clearFieldErrors(kform);
  status(kst, 'loading', t('set.creating'));
  try {
    const k = await api('POST', '/user/api-keys', { name: control(kform, 'name').value.trim() });
    status(kst, '', t('set.createdN', { name: k.name }));
    document.getElementById('new-key-value').textContent = k.key;
    document.getElementById('new-key').hidden = false;
    document.getElementById('copy-key').focus();
    kform.reset();
    await loadKeys();
  } catch (err) {
    if (err.details?.length) fieldErrors(kform, err.details);
    else if (err.code === 'MISSING_FIELD') fieldErrors(kform, [{ path: 'name', message: t('js.required') }]);
    status(kst, 'error', describe(err));
  }
});
document.getElementById('copy-key').addEventListener('click', async () => {
  const cst = document.getElementById('copy-status');
  try {
    await navigator.clipboard.writeText(document.getElementById('new-key-value').textContent);
    status(cst, '', t('set.copied'));
  } catch {
    status(cst, 'error', t('set.copyRefused'));
  }
});

// Webhooks: the endpoints, their secret shown once, a test event and the
// delivery log.
const hform = /** @type {HTMLFormElement} */ (document.getElementById('hook-form'));
const hst = document.getElementById('hook-status');
const showSecret = (secret) => {
  document.getElementById('new-hook-secret').textContent = secret;
  document.getElementById('new-hook').hidden = false;
  document.getElementById('copy-hook').focus();
};
async function loadHooks() {
  try {
    const hooks = await api('GET', '/user/webhooks');
    const tbl = document.getElementById('hooks');
    if (!hooks.length) { tbl.replaceChildren(el('caption', {}, t('hk.none'))); return; }
    const btn = (cls, key, h, fn) => el('button', { type: 'button', class: cls + ' small', 'aria-label': t(key + 'N', { url: h.url }), onclick: () => fn(h) }, t(key));
    tbl.replaceChildren(el('caption', { class: 'sr' }, t('hk.yours')),
      el('thead', {}, el('tr', {}, [t('hk.url'), t('hk.events'), t('set.created'), ''].map((h, i) => el('th', { scope: 'col', class: i < 2 ? 'left' : '' }, h || el('span', { class: 'sr' }, t('js.actions')))))),
      el('tbody', {}, hooks.map((h) => el('tr', { 'data-id': h.id },
        el('td', { class: 'left', 'data-label': t('hk.url') }, el('code', {}, h.url)),
        el('td', { class: 'left', 'data-label': t('hk.events') }, h.events.map((x) => t('hk.e.' + x)).join(', ')),
        el('td', { 'data-label': t('set.created') }, when(h.createdAt)),
        el('td', { class: 'actions' }, btn('secondary', 'hk.test', h, testHook), btn('secondary', 'hk.rotate', h, rotateHook), btn('danger', 'hk.delete', h, deleteHook))))));
  } catch (err) {
    status(hst, 'error', describe(err));
  }
}
async function loadDeliveries() {
  const tbl = document.getElementById('deliveries');
  try {
    const ds = await api('GET', '/user/deliveries?limit=10');
    if (!ds.length) { tbl.replaceChildren(el('caption', {}, t('hk.noDeliveries'))); return; }
    const cols = [t('hk.when'), t('hk.to'), t('hk.event'), t('hk.status'), t('hk.attempts'), t('hk.answer')];
    tbl.replaceChildren(el('caption', { class: 'sr' }, t('hk.deliveries')),
      el('thead', {}, el('tr', {}, cols.map((h, i) => el('th', { scope: 'col', class: i < 4 ? 'left' : '' }, h)))),
      el('tbody', {}, ds.map((d) => el('tr', { 'data-id': d.id, 'data-status': d.status },
        el('td', { class: 'left', 'data-label': cols[0] }, when(d.createdAt)),
        el('td', { class: 'left', 'data-label': cols[1] }, t(d.webhookId === 'email' ? 'hk.toEmail' : 'hk.toHook')),
        el('td', { class: 'left', 'data-label': cols[2] }, t('hk.e.' + d.eventType)),
        el('td', { class: 'left', 'data-label': cols[3] }, t('hk.s.' + d.status)),
        el('td', { 'data-label': cols[4] }, String(d.attempts)),
        el('td', { 'data-label': cols[5] }, d.lastStatus ? String(d.lastStatus) : '—', d.lastError ? el('span', { class: 'hint', lang: 'en' }, ' ' + d.lastError) : '')))));
  } catch (err) {
    tbl.replaceChildren(el('caption', {}, describe(err)));
  }
}
async function testHook(h) {
  status(hst, 'loading', t('hk.sending'));
  try {
    await api('POST', '/user/webhooks/' + encodeURIComponent(h.id) + '/test');
    status(hst, '', t('hk.sent', { url: h.url }));
    // The worker delivers it in the background: look again shortly.
    setTimeout(loadDeliveries, 1500);
    await loadDeliveries();
  } catch (err) {
    status(hst, 'error', describe(err));
  }
}
async function rotateHook(h) {
  if (!confirm(t('hk.confirmRotate', { url: h.url }))) return;
  try {
    const x = await api('POST', '/user/webhooks/' + encodeURIComponent(h.id) + '/rotate');
    status(hst, '', t('hk.rotated', { url: h.url }));
    showSecret(x.secret);
  } catch (err) {
    status(hst, 'error', describe(err));
  }
}
async function deleteHook(h) {
  if (!confirm(t('hk.confirmDelete', { url: h.url }))) return;
  try {
    await api('DELETE', '/user/webhooks/' + encodeURIComponent(h.id));
    status(hst, '', t('hk.deleted', { url: h.url }));
    document.getElementById('new-hook').hidden = true;
    await loadHooks();
  } catch (err) {
    status(hst, 'error', describe(err));
  }
}
hform.addEventListener('submit', async (e) => {
  e.preventDefault();
  clearFieldErrors(hform);
  const events = [...hform.querySelectorAll('input[name=events]:checked')].map((x) => /** @type {HTMLInputElement} */ (x).value);
  status(hst, 'loading', t('set.creating'));
  try {
    const h = await api('POST', '/user/webhooks', { url: control(hform, 'url').value.trim(), events });
    status(hst, '', t('hk.added', { url: h.url }));
    showSecret(h.secret);
    /** @type {HTMLInputElement} */ (control(hform, 'url')).value = '';
    await loadHooks();
  } catch (err) {
    // The API's reasons are English; the field says what to do in the page's language.
    const by = { url: t('hk.badUrl'), events: t('hk.badEvents') };
    const ds = err.details?.length ? err.details : err.code === 'MISSING_FIELD' ? [{ path: events.length ? 'url' : 'events' }] : [];
    if (ds.length) fieldErrors(hform, ds.map((d) => ({ ...d, message: by[String(d.path).replace(/\[\d+\]$/, '')] || d.message })));
    status(hst, 'error', describe(err));
  }
});
document.getElementById('copy-hook').addEventListener('click', async () => {
  const cst = document.getElementById('copy-hook-status');
  try {
    await navigator.clipboard.writeText(document.getElementById('new-hook-secret').textContent);
    status(cst, '', t('set.copied'));
  } catch {
    status(cst, 'error', t('set.copyRefused'));
  }
});
document.getElementById('dl-refresh').addEventListener('click', loadDeliveries);

// Export and erasure.
document.getElementById('export').addEventListener('click', async () => {
  const st = document.getElementById('export-status');
  status(st, 'loading', t('set.preparing'));
  try {
    const d = await api('GET', '/user/export');
    download('fiplan-export.json', 'application/json', JSON.stringify(d, null, 2));
    status(st, '', t('set.downloaded'));
  } catch (err) {
    status(st, 'error', describe(err));
  }
});
const dform = /** @type {HTMLFormElement} */ (document.getElementById('delete'));
const phrase = t('set.phrase');
dform.confirm.addEventListener('input', () => { /** @type {HTMLButtonElement} */ (document.getElementById('delete-btn')).disabled = dform.confirm.value.trim() !== phrase; });
dform.addEventListener('submit', async (e) => {
  e.preventDefault();
  const st = dform.querySelector('.status');
  if (dform.confirm.value.trim() !== phrase) { status(st, 'error', t('set.typePhrase', { phrase })); return; }
  status(st, 'loading', t('set.deleting'));
  try {
    await api('DELETE', '/user');
    status(st, '', t('set.deletedOut'));
    /** @type {HTMLFormElement} */ (document.getElementById('signout')).requestSubmit();
  } catch (err) {
    status(st, 'error', describe(err));
  }
});

if (await requireSession(document.getElementById('page'))) {
  await loadFormat();
  loadProfile(); loadSettings(); loadNotifications(); loadKeys(); loadHooks(); loadDeliveries();
}
