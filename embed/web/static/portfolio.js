// The signed-in person's assets, their summary, the portfolio health score
// computed from them, and the FI score.
import { api, describe, status, fieldErrors, clearFieldErrors, el, money, numberOf, requireSession, control, loadFormat } from './common.js';
import { barChart } from './chart.js';

const form = /** @type {HTMLFormElement} */ (document.getElementById('asset-form'));
const fst = document.getElementById('form-status');
let assets = [];
let summary = null;

const label = (s) => String(s).replaceAll('_', ' ');

/** The parts of the scores, in words. */
const partNames = {
  fiProgress: 'Progress to your FI number', portfolioHealth: 'Portfolio health', timeToFI: 'Time to FI',
  diversification: 'Diversification', cost_efficiency: 'Cost efficiency', risk_alignment: 'Risk alignment', resilience: 'Resilience',
};

/** A name the API uses (fiProgress, cost_efficiency, profile.currentAge) in words. */
function words(name) {
  if (partNames[name]) return partNames[name];
  const w = String(name).replace(/^(profile|settings)\./, '').replace(/_/g, ' ').replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
  return w.charAt(0).toUpperCase() + w.slice(1);
}

/** What the FI score lacks, said for this page: [what, why]. */
const missingWords = {
  'profile.annualExpenses': ['Your yearly spending', 'it sets your FI number; progress and time to FI score 0 without it.'],
  'profile.currentAge': ['Your age or birth year', 'it sets the years to FI; time to FI scores 0 without it.'],
  'profile.annualIncome': ['Your take-home income', 'without it no saving is assumed.'],
  'profile.riskTolerance': ['Your risk tolerance', 'it makes the risk part of portfolio health exact.'],
  'settings.withdrawalRate': ['A larger withdrawal rate', 'the one set is too small for a finite FI number.'],
  assets: ['Your assets', 'add them above; portfolio health scores 0 without them.'],
};

/** An explanation from the API without its route and field names. */
function plain(why) {
  return String(why).replace(/\s*\((GET|POST|PUT|PATCH|DELETE) \/api\/[^)]*\)/g, '')
    .replace(/\b(?:(?:profile|settings)\.)?[a-z]+[A-Z][A-Za-z]*\b/g, (m) => words(m).toLowerCase());
}

async function loadAssets() {
  const st = document.getElementById('assets-status');
  status(st, 'loading', 'Loading assets…');
  try {
    // Pages of 200 (the API's largest) until every asset is in.
    assets = [];
    for (let off = 0; ; off += 200) {
      const page = await api('GET', `/assets?limit=200&offset=${off}`);
      assets.push(...page);
      if (page.length < 200 || assets.length >= (page.meta?.total ?? 0)) break;
    }
    status(st, '', assets.length ? '' : 'No assets yet: add your first one below.');
    renderAssets();
  } catch (err) {
    status(st, 'error', describe(err));
  }
}

function renderAssets() {
  const t = document.getElementById('assets');
  if (!assets.length) { t.replaceChildren(); return; }
  t.replaceChildren(
    el('caption', { class: 'sr' }, 'Your assets'),
    el('thead', {}, el('tr', {}, ['Name', 'Category', 'Value', ''].map((h, i) => el('th', { scope: 'col', class: i < 2 ? 'left' : '' }, h || el('span', { class: 'sr' }, 'Actions'))))),
    el('tbody', {}, assets.map((a) => el('tr', { 'data-id': a.id },
      el('td', { class: 'left', 'data-label': 'Name' }, a.name, a.isin ? el('br') : '', a.isin ? el('small', {}, a.isin) : ''),
      el('td', { class: 'left', 'data-label': 'Category' }, label(a.category)),
      el('td', { 'data-label': 'Value' }, money(a.value, a.currency || undefined)),
      el('td', { class: 'actions' },
        el('button', { type: 'button', class: 'secondary small', 'aria-label': `Edit ${a.name}`, onclick: () => edit(a) }, 'Edit'), ' ',
        el('button', { type: 'button', class: 'danger small', 'aria-label': `Delete ${a.name}`, onclick: () => remove(a) }, 'Delete'))))));
}

function edit(a) {
  clearFieldErrors(form);
  control(form, 'id').value = a.id;
  control(form, 'name').value = a.name;
  form.isin.value = a.isin || '';
  form.value.value = a.value;
  form.currency.value = a.currency || '';
  form.category.value = a.category || '';
  form.expenseRatio.value = a.expenseRatio === null || a.expenseRatio === undefined ? '' : +(a.expenseRatio * 100).toFixed(4);
  document.getElementById('form-h').textContent = `Edit ${a.name}`;
  document.getElementById('asset-save').textContent = 'Save changes';
  document.getElementById('asset-cancel').hidden = false;
  control(form, 'name').focus();
}

function resetForm() {
  form.reset();
  control(form, 'id').value = '';
  clearFieldErrors(form);
  document.getElementById('form-h').textContent = 'Add an asset';
  document.getElementById('asset-save').textContent = 'Add asset';
  document.getElementById('asset-cancel').hidden = true;
}

async function remove(a) {
  if (!confirm(`Delete ${a.name}? This cannot be undone.`)) return;
  const st = document.getElementById('assets-status');
  status(st, 'loading', `Deleting ${a.name}…`);
  try {
    await api('DELETE', '/assets/' + encodeURIComponent(a.id));
    status(st, '', `${a.name} deleted.`);
    await refreshAll();
  } catch (err) {
    status(st, 'error', describe(err));
  }
}

form.addEventListener('submit', async (e) => {
  e.preventDefault();
  clearFieldErrors(form);
  const id = control(form, 'id').value;
  const body = { name: control(form, 'name').value.trim(), value: numberOf(form.value) };
  const isin = form.isin.value.trim().toUpperCase();
  const cur = form.currency.value.trim().toUpperCase();
  const er = numberOf(form.expenseRatio);
  if (isin || id) body.isin = isin || null;
  if (cur) body.currency = cur;
  if (form.category.value) body.category = form.category.value;
  if (er !== undefined) body.expenseRatio = typeof er === 'number' ? Math.round(er * 1e6) / 1e8 : er;
  else if (id) body.expenseRatio = null;
  status(fst, 'loading', id ? 'Saving…' : 'Adding…');
  try {
    await api(id ? 'PATCH' : 'POST', id ? '/assets/' + encodeURIComponent(id) : '/assets', body);
    status(fst, '', id ? 'Saved.' : `Added ${body.name}.`);
    resetForm();
    await refreshAll();
  } catch (err) {
    const rest = err.details?.length ? fieldErrors(form, err.details) : [];
    if (err.code === 'MISSING_FIELD') {
      const m = /"?(\w+)"?/.exec(err.message.replace(/^.*field /, ''));
      const input = m && form.querySelector(`[data-path="${m[1]}"]`);
      if (input) fieldErrors(form, [{ path: m[1], message: 'is required' }]);
    }
    if (err.code === 'CONFLICT') fieldErrors(form, [{ path: 'isin', message: err.message }]);
    status(fst, 'error', err.details?.length && !rest.length ? 'Check the highlighted fields.' : describe(err));
  }
});
document.getElementById('asset-cancel').addEventListener('click', resetForm);

async function loadSummary() {
  const st = document.getElementById('summary-status');
  status(st, 'loading', 'Loading the summary…');
  try {
    summary = await api('GET', '/assets/summary');
    status(st, '', '');
    renderSummary();
  } catch (err) {
    status(st, 'error', describe(err));
  }
}

let summaryWidth = 0;
/** Draws the summary's charts at the width of their box. */
function renderSummary() {
  const box = document.getElementById('summary');
  if (!summary) return;
  if (!summary.assets) { box.replaceChildren(el('p', {}, 'Add assets to see how they are spread.')); return; }
  const fmt = (v) => money(v, summary.currency);
  summaryWidth = box.clientWidth;
  const width = box.clientWidth - 18;
  box.replaceChildren(
    el('p', {}, 'Total: ', el('strong', { id: 'total' }, fmt(summary.totalValue)), ` in ${summary.assets} asset${summary.assets === 1 ? '' : 's'}`),
    el('h3', {}, 'By category'),
    barChart({ title: 'Allocation by category', rows: summary.byCategory.map((r) => ({ label: label(r.key), share: r.share, value: r.value })), fmt, width }),
    el('h3', {}, 'By currency'),
    barChart({ title: 'Allocation by currency', rows: summary.byCurrency.map((r) => ({ label: r.key, share: r.share, value: r.value })), fmt, width }),
    el('p', { class: 'lead' }, `Exchange rates of ${summary.exchangeRates?.asOf ?? '—'}.`));
}

// Charts are drawn at the width they are shown at: redrawn when it changes.
let resizeTimer = 0;
window.addEventListener('resize', () => {
  clearTimeout(resizeTimer);
  resizeTimer = setTimeout(() => {
    if (summary && Math.abs(document.getElementById('summary').clientWidth - summaryWidth) > 40) renderSummary();
  }, 200);
});

async function loadHealth(profile) {
  const st = document.getElementById('health-status');
  const box = document.getElementById('health');
  if (!assets.length) { status(st, '', ''); box.replaceChildren(el('p', {}, 'The health score needs at least one asset.')); return; }
  status(st, 'loading', 'Scoring your portfolio…');
  const body = {
    holdings: assets.map((a) => {
      const h = { name: a.name, value: a.value, assetClass: a.category, currency: a.currency };
      if (a.isin) h.isin = a.isin;
      if (a.expenseRatio !== null && a.expenseRatio !== undefined) h.expenseRatio = a.expenseRatio;
      if (a.region) h.region = a.region;
      return h;
    }),
  };
  if (summary?.currency) body.currency = summary.currency;
  if (profile) {
    if (profile.currentAge) body.age = profile.currentAge;
    if (profile.annualExpenses) body.annualExpenses = profile.annualExpenses;
    if (profile.riskTolerance) body.riskTolerance = profile.riskTolerance;
    if (profile.targetRetirementAge) body.targetRetirementAge = profile.targetRetirementAge;
  }
  try {
    const h = await api('POST', '/portfolio-health', body);
    status(st, '', '');
    box.replaceChildren(scoreView(h.score, 1000, 'health-score'), components(h.components), recs(h.recommendations));
  } catch (err) {
    status(st, 'error', describe(err));
  }
}

function scoreView(score, max, id) {
  return el('div', {},
    el('p', {}, el('span', { class: 'score', id }, String(score)), ` of ${max}`),
    el('meter', { class: 'meter', min: 0, max, value: score, 'aria-label': `Score ${score} of ${max}` }));
}

function components(cs) {
  return el('ul', { class: 'components' }, cs.map((c) => el('li', {},
    el('strong', {}, words(c.name)), el('br'), `${c.score} of ${c.max}`,
    el('meter', { class: 'meter', min: 0, max: c.max, value: c.score, 'aria-label': `${words(c.name)}: ${c.score} of ${c.max}` }))));
}

function recs(list) {
  if (!list || !list.length) return el('p', {}, 'Nothing to improve.');
  return el('div', {}, el('h3', {}, 'Recommendations'),
    el('ol', { class: 'recs' }, list.map((r) => el('li', {}, el('strong', {}, r.title), el('br'), r.detail))));
}

async function loadFIScore() {
  const st = document.getElementById('fiscore-status');
  const box = document.getElementById('fiscore');
  status(st, 'loading', 'Loading your FI score…');
  try {
    const f = await api('GET', '/fi-score');
    status(st, '', '');
    const kids = [scoreView(f.score, 1000, 'fi-score'), components(f.components)];
    if (f.missing?.length) {
      kids.push(el('h3', {}, 'To make it exact'),
        el('ul', { id: 'fi-missing' }, f.missing.map((m) => {
          const [what, why] = missingWords[m.field] || [words(m.field), plain(m.why)];
          return el('li', {}, el('strong', {}, what), ': ', why);
        })),
        el('p', {}, el('a', { href: '/dashboard/settings' }, 'Complete your profile')));
    }
    box.replaceChildren(...kids);
  } catch (err) {
    status(st, 'error', describe(err));
  }
}

async function refreshAll() {
  await loadFormat();
  await loadAssets();
  await loadSummary();
  const profile = await api('GET', '/user/profile').catch(() => null);
  await Promise.all([loadHealth(profile), loadFIScore()]);
}

if (await requireSession(document.getElementById('page'))) refreshAll();

