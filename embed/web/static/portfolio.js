// The signed-in person's assets, their summary, the portfolio health score
// computed from them, and the FI score.
import { api, describe, status, fieldErrors, clearFieldErrors, el, money, num, pct, numberOf, requireSession, control, loadFormat, t, tn, lang } from './common.js';
import { barChart } from './chart.js';

const form = /** @type {HTMLFormElement} */ (document.getElementById('asset-form'));
const fst = document.getElementById('form-status');
let assets = [];
let summary = null;

/** A category's name in the page's language. */
const label = (s) => t('category.' + s);

/** The parts of the scores, in words. */
const partNames = {
  fiProgress: t('pf.part.fiProgress'), portfolioHealth: t('pf.health'), timeToFI: t('pf.part.timeToFI'),
  diversification: t('pf.part.diversification'), cost_efficiency: t('pf.part.cost'), risk_alignment: t('pf.part.risk'), resilience: t('pf.part.resilience'),
};

/** A name the API uses (fiProgress, cost_efficiency, profile.currentAge) in words. */
function words(name) {
  if (partNames[name]) return partNames[name];
  const w = String(name).replace(/^(profile|settings)\./, '').replace(/_/g, ' ').replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
  return w.charAt(0).toUpperCase() + w.slice(1);
}

/** What the FI score lacks, said for this page: [what, why]. */
const missingWords = {
  'profile.annualExpenses': [t('pf.miss.expenses'), t('pf.miss.expensesWhy')],
  'profile.currentAge': [t('pf.miss.age'), t('pf.miss.ageWhy')],
  'profile.annualIncome': [t('pf.miss.income'), t('pf.miss.incomeWhy')],
  'profile.riskTolerance': [t('pf.miss.risk'), t('pf.miss.riskWhy')],
  'settings.withdrawalRate': [t('pf.miss.wr'), t('pf.miss.wrWhy')],
  assets: [t('pf.miss.assets'), t('pf.miss.assetsWhy')],
};

/** An explanation from the API without its route and field names. */
function plain(why) {
  return String(why).replace(/\s*\((GET|POST|PUT|PATCH|DELETE) \/api\/[^)]*\)/g, '')
    .replace(/\b(?:(?:profile|settings)\.)?[a-z]+[A-Z][A-Za-z]*\b/g, (m) => words(m).toLowerCase());
}

async function loadAssets() {
  const st = document.getElementById('assets-status');
  status(st, 'loading', t('pf.loadingAssets'));
  try {
    // Pages of 200 (the API's largest) until every asset is in.
    assets = [];
    for (let off = 0; ; off += 200) {
      const page = await api('GET', `/assets?limit=200&offset=${off}`);
      assets.push(...page);
      if (page.length < 200 || assets.length >= (page.meta?.total ?? 0)) break;
    }
    status(st, '', assets.length ? '' : t('pf.noAssets'));
    renderAssets();
  } catch (err) {
    status(st, 'error', describe(err));
  }
}

function renderAssets() {
  const tbl = document.getElementById('assets');
  if (!assets.length) { tbl.replaceChildren(); return; }
  tbl.replaceChildren(
    el('caption', { class: 'sr' }, t('pf.yourAssets')),
    el('thead', {}, el('tr', {}, [t('pf.name'), t('pf.category'), t('pf.value'), ''].map((h, i) => el('th', { scope: 'col', class: i < 2 ? 'left' : '' }, h || el('span', { class: 'sr' }, t('js.actions')))))),
    el('tbody', {}, assets.map((a) => el('tr', { 'data-id': a.id },
      el('td', { class: 'left', 'data-label': t('pf.name') }, a.name, a.isin ? el('br') : '', a.isin ? el('small', {}, a.isin) : ''),
      el('td', { class: 'left', 'data-label': t('pf.category') }, label(a.category)),
      el('td', { 'data-label': t('pf.value') }, money(a.value, a.currency || undefined)),
      el('td', { class: 'actions' },
        el('button', { type: 'button', class: 'secondary small', 'aria-label': t('pf.editN', { name: a.name }), onclick: () => edit(a) }, t('pf.edit')), ' ',
        el('button', { type: 'button', class: 'danger small', 'aria-label': t('pf.deleteN', { name: a.name }), onclick: () => remove(a) }, t('pf.delete')))))));
}

function edit(a) {
  clearFieldErrors(form);
  control(form, 'id').value = a.id;
  control(form, 'name').value = a.name;
  form.isin.value = a.isin || '';
  form.value.value = a.value;
  form.currency.value = a.currency || '';
  form.category.value = a.category || '';
  form.region.value = a.region || '';
  form.expenseRatio.value = a.expenseRatio === null || a.expenseRatio === undefined ? '' : +(a.expenseRatio * 100).toFixed(4);
  document.getElementById('form-h').textContent = t('pf.editN', { name: a.name });
  document.getElementById('asset-save').textContent = t('pf.saveChanges');
  document.getElementById('asset-cancel').hidden = false;
  control(form, 'name').focus();
}

function resetForm() {
  form.reset();
  control(form, 'id').value = '';
  clearFieldErrors(form);
  document.getElementById('form-h').textContent = t('pf.add');
  document.getElementById('asset-save').textContent = t('pf.addBtn');
  document.getElementById('asset-cancel').hidden = true;
}

async function remove(a) {
  if (!confirm(t('pf.confirmDelete', { name: a.name }))) return;
  const st = document.getElementById('assets-status');
  status(st, 'loading', t('pf.deleting', { name: a.name }));
  try {
    await api('DELETE', '/assets/' + encodeURIComponent(a.id));
    status(st, '', t('pf.deleted', { name: a.name }));
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
  if (form.region.value) body.region = form.region.value;
  else if (id) body.region = null;
  if (er !== undefined) body.expenseRatio = typeof er === 'number' ? Math.round(er * 1e6) / 1e8 : er;
  else if (id) body.expenseRatio = null;
  status(fst, 'loading', id ? t('js.saving') : t('pf.adding'));
  try {
    await api(id ? 'PATCH' : 'POST', id ? '/assets/' + encodeURIComponent(id) : '/assets', body);
    status(fst, '', id ? t('js.saved') : t('pf.added', { name: body.name }));
    resetForm();
    await refreshAll();
  } catch (err) {
    const rest = err.details?.length ? fieldErrors(form, err.details) : [];
    if (err.code === 'MISSING_FIELD') {
      const m = /"?(\w+)"?/.exec(err.message.replace(/^.*field /, ''));
      const input = m && form.querySelector(`[data-path="${m[1]}"]`);
      if (input) fieldErrors(form, [{ path: m[1], message: t('js.required') }]);
    }
    if (err.code === 'CONFLICT') fieldErrors(form, [{ path: 'isin', message: err.message }]);
    status(fst, 'error', err.details?.length && !rest.length ? t('js.checkFields') : describe(err));
  }
});
document.getElementById('asset-cancel').addEventListener('click', resetForm);

async function loadSummary() {
  const st = document.getElementById('summary-status');
  status(st, 'loading', t('pf.loadingSummary'));
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
  if (!summary.assets) { box.replaceChildren(el('p', {}, t('pf.addToSee'))); return; }
  const fmt = (v) => money(v, summary.currency);
  summaryWidth = box.clientWidth;
  const width = box.clientWidth - 18;
  box.replaceChildren(
    el('p', {}, t('pf.total'), ' ', el('strong', { id: 'total' }, fmt(summary.totalValue)), ' ', tn('pf.inAssets', summary.assets)),
    el('h3', {}, t('pf.byCategory')),
    barChart({ title: t('pf.allocCategory'), rows: summary.byCategory.map((r) => ({ label: label(r.key), share: r.share, value: r.value })), fmt, width, pct }),
    el('h3', {}, t('pf.byCurrency')),
    barChart({ title: t('pf.allocCurrency'), rows: summary.byCurrency.map((r) => ({ label: r.key, share: r.share, value: r.value })), fmt, width, pct }),
    rates());
}

/**
 * The exchange rates the summary used, one per currency held besides the
 * base currency: "1 USD = 0.9213 EUR", with their date.
 */
function rates() {
  const fx = summary.exchangeRates;
  const used = (fx?.rates || []).filter((r) => r.currency !== summary.currency);
  if (!used.length) return el('p', { class: 'lead', id: 'fx' }, t('pf.noConversion', { cur: summary.currency }));
  return el('p', { class: 'lead', id: 'fx' }, t('pf.ratesUsed', { date: fx.asOf ?? '—' }), ' ',
    used.map((r) => `1 ${summary.currency} = ${num(r.rate, 4)} ${r.currency}`).join(' · '), '.');
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
  if (!assets.length) { status(st, '', ''); box.replaceChildren(el('p', {}, t('pf.healthNeeds'))); return; }
  status(st, 'loading', t('pf.scoring'));
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
    el('p', {}, el('span', { class: 'score', id }, String(score)), ' ', t('pf.ofMax', { max: num(max) })),
    el('meter', { class: 'meter', min: 0, max, value: score, 'aria-label': t('pf.scoreOf', { score, max: num(max) }) }));
}

function components(cs) {
  return el('ul', { class: 'components' }, cs.map((c) => el('li', {},
    el('strong', {}, words(c.name)), el('br'), t('pf.partOf', { score: c.score, max: c.max }),
    el('meter', { class: 'meter', min: 0, max: c.max, value: c.score, 'aria-label': `${words(c.name)}: ${t('pf.partOf', { score: c.score, max: c.max })}` }))));
}

function recs(list) {
  if (!list || !list.length) return el('p', {}, t('pf.nothing'));
  return el('div', {}, el('h3', {}, t('pf.recs')),
    el('ol', { class: 'recs' }, list.map((r) => el('li', {}, el('strong', {}, recTitle(r)), el('br'), recDetail(r)))));
}

/**
 * A recommendation's title in the page's language, from its kind (the
 * holding it names taken from the API's English title).
 */
function recTitle(r) {
  if (lang === 'en' || !r.kind || t('rec.' + r.kind) === 'rec.' + r.kind) return r.title;
  const en = /** @type {Record<string, string>} */ ({ single_holding: 'Reduce the weight of ', fund_cost: 'Cut the fee on ' })[r.kind];
  return t('rec.' + r.kind, { name: en && r.title.startsWith(en) ? r.title.slice(en.length) : '' });
}

/**
 * Its explanation: the API writes it in English only, so on a page in
 * another language it is marked as English (lang="en") for screen readers
 * and said to be.
 */
function recDetail(r) {
  if (lang === 'en') return r.detail;
  return el('span', {}, el('span', { class: 'hint' }, t('pf.recDetailLang'), ' '), el('span', { lang: 'en' }, r.detail));
}

/** The plan the FI score is of: '' the one saved last, 'none' the profile alone, else a plan's id. */
const scorePlan = /** @type {HTMLSelectElement} */ (document.getElementById('fiscore-plan'));
scorePlan.addEventListener('change', loadFIScore);

/** Offers the saved plans to score from (the choice is there only with plans). */
async function loadPlans() {
  const plans = await api('GET', '/plans?limit=100').catch(() => []);
  const was = scorePlan.value;
  scorePlan.replaceChildren(...[...scorePlan.options].slice(0, 2), ...plans.map((p) => el('option', { value: p.id }, p.name)));
  scorePlan.value = was;
  if (scorePlan.selectedIndex < 0) scorePlan.value = '';
  document.getElementById('fiscore-plan-field').hidden = !plans.length;
}

async function loadFIScore() {
  const st = document.getElementById('fiscore-status');
  const box = document.getElementById('fiscore');
  status(st, 'loading', t('pf.loadingFI'));
  try {
    const f = await api('GET', '/fi-score' + (scorePlan.value ? '?plan=' + encodeURIComponent(scorePlan.value) : ''));
    status(st, '', '');
    // Which plan was scored, with a way to it.
    document.getElementById('fiscore-from').replaceChildren(...(f.plan
      ? [t('pf.scoredFrom', { name: f.plan.name }), ' ', el('a', { href: '/?plan=' + encodeURIComponent(f.plan.id), id: 'fiscore-open' }, t('pf.openPlan', { name: f.plan.name }))]
      : [t('pf.scoredProfile')]));
    const kids = [scoreView(f.score, 1000, 'fi-score'), components(f.components)];
    if (f.missing?.length) {
      kids.push(el('h3', {}, t('pf.makeExact')),
        el('ul', { id: 'fi-missing' }, f.missing.map((m) => {
          const [what, why] = missingWords[m.field] || [words(m.field), plain(m.why)];
          return el('li', {}, el('strong', {}, what), ': ', why);
        })),
        el('p', {}, el('a', { href: '/dashboard/settings' }, t('pf.complete'))));
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
  await Promise.all([loadHealth(profile), loadPlans().then(loadFIScore)]);
}

if (await requireSession(document.getElementById('page'))) refreshAll();

