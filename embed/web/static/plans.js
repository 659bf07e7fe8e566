// Saved plans (signed in): save, open, rename, duplicate, delete, compare
// side by side with the scenarios, and the open plan's yearly check-in.
import { api, describe, status, fieldErrors, clearFieldErrors, setFieldError, el, money, pct, t, tNodes, currency, numberOf, locale } from './common.js';
import { accountNode, endAge, lastsText, rateText, yearsText, stat } from './household.js';

const $ = (id) => /** @type {HTMLInputElement} */ (document.getElementById(id));
const planSt = $('plan-status');
const planName = $('plan-name');
const listBox = $('plan-list');
/** @type {{id:string,name:string,etag?:string,input?:any,checkinDate?:string,createdAt?:string}|null} */
export let plan = null;
let all = [];
/** The answers of the ticked plans by id. */
const runs = new Map();
/** The calculator's: request, fill, calculate, toURL and form. */
let hooks;
const fail = (err) => status(planSt, 'error', describe(err));

async function list() {
  all = await api('GET', '/plans?limit=100').catch(() => []);
  const b = (key, p, fn) => el('button', { type: 'button', class: 'secondary small', 'aria-label': t(key + 'N', { name: p.name }), onclick: () => fn(p).catch(fail) }, t(key));
  listBox.replaceChildren(...(all.length ? all.map((p, i) => el('li', { id: 'pl-' + p.id, class: 'actions' },
    el('span', { class: 'pl-name' }, p.name),
    el('label', {}, el('input', { type: 'checkbox', id: 'cmp-' + i, checked: runs.has(p.id), onchange: (e) => tick(p, e.target.checked) }), t('plans.compare')),
    b('plans.open', p, (x) => open(x.id, true).then(hooks.calculate)), b('plans.rename', p, rename),
    b('plans.duplicate', p, duplicate), b('plans.delete', p, remove))) : [el('li', {}, t('plans.empty'))]));
}

/**
 * A write to plan p as the list showed it: refused when it changed since
 * (another tab or device), else sent with the If-Match of that version.
 */
async function write(method, p, body) {
  const cur = await api('GET', '/plans/' + p.id);
  if (cur.updatedAt !== p.updatedAt) { await list(); throw new Error(t('plans.changed', { name: p.name })); }
  return api(method, '/plans/' + p.id, body, false, { 'If-Match': cur.etag });
}

async function done(msg) {
  status(planSt, '', msg);
  await list();
  if (last) compare(last, lastBody);
}

async function rename(p) {
  const li = $('pl-' + p.id);
  const input = el('input', { id: 'rn-' + p.id, value: p.name, maxlength: 120, 'aria-label': t('plans.newName', { name: p.name }) });
  const save = async () => {
    try {
      const x = await write('PATCH', p, { name: input.value.trim() });
      if (plan?.id === x.id) { keep(x); hint(); }
      await done(t('plans.renamed', { name: x.name }));
    } catch (err) {
      const f = err.details?.find((d) => d.path === 'name');
      if (f) setFieldError(input, t('plans.badName'));
      else fail(err);
    }
  };
  input.addEventListener('keydown', (e) => { if (e.key === 'Enter') { e.preventDefault(); save(); } });
  li.replaceChildren(input, el('button', { type: 'button', class: 'small', onclick: save }, t('plans.saveName')),
    el('button', { type: 'button', class: 'secondary small', onclick: list }, t('plans.cancel')));
  input.focus();
}

async function duplicate(p) {
  const x = await api('POST', '/plans', { name: t('plans.copyOf', { name: p.name }).slice(0, 120), input: p.input });
  await done(t('plans.duplicated', { name: x.name }));
}

async function remove(p) {
  if (!confirm(t('plans.confirmDelete', { name: p.name }))) return;
  await write('DELETE', p);
  runs.delete(p.id);
  if (plan?.id === p.id) { plan = null; hooks.toURL(); showCheckIn(); }
  await done(t('plans.deleted', { name: p.name }));
}

async function tick(p, on) {
  if (on) {
    try { runs.set(p.id, await oneAtATime(() => api('POST', '/plans/' + p.id + '/run'))); } catch (err) { fail(err); }
  } else runs.delete(p.id);
  if (last) compare(last, lastBody);
}

/**
 * The comparison's runs (the ticked plans, each scenario alone), one at a
 * time beside the calculation: the server runs only a few expensive
 * requests of one caller at once and refuses the rest with 503.
 */
let queue = Promise.resolve();
function oneAtATime(fn) {
  const p = queue.then(fn);
  queue = p.catch(() => {});
  return p;
}

/** Makes p, as the API answered it, the open plan. */
function keep(p) {
  plan = { id: p.id, name: p.name, etag: p.etag, input: p.input, checkinDate: p.checkinDate, createdAt: p.createdAt };
  planName.value = p.name;
}

async function open(id, fill) {
  try {
    const p = await api('GET', '/plans/' + encodeURIComponent(id));
    keep(p);
    if (fill) hooks.fill(p.input);
    status(planSt, '', t('plans.opened', { name: p.name }));
  } catch (err) { fail(err); }
  showCheckIn();
}

async function save() {
  clearFieldErrors(hooks.form);
  const name = planName.value.trim() || t('plans.defaultName');
  const body = { name, input: hooks.request() };
  // Saved again, the plan keeps its check-in date.
  const again = plan && plan.name === name;
  if (again && plan.checkinDate) body.checkinDate = plan.checkinDate;
  try {
    // The open plan is saved again under its name, unless it changed since
    // it was read (If-Match: 412); another name makes a new plan.
    const p = again
      ? await api('PUT', '/plans/' + plan.id, body, false, plan.etag ? { 'If-Match': plan.etag } : {})
      : await api('POST', '/plans', body);
    keep(p);
    hooks.toURL();
    showCheckIn();
    await done(t('plans.saved', { name: p.name }));
  } catch (err) {
    // The plan's errors name paths under input.
    const rest = err.details?.length ? fieldErrors(hooks.form, err.details.map((x) => ({ ...x, path: String(x.path).replace(/^input\./, '') }))) : [];
    status(planSt, 'error', err.details?.length && !rest.length ? t('js.checkFields') : describe(err));
  }
}

/** Shows the saved-plan section and opens ?plan=id (filling the form unless the query held a plan). */
export async function initPlans(h, id, fill) {
  hooks = h;
  $('saved').hidden = false;
  $('save-plan').addEventListener('click', save);
  if (id) await open(id, fill);
  await list();
}

let last = null;
let lastBody = null;

/** This plan, its scenarios (each run alone for its success rates) and the ticked plans side by side. */
export async function compare(d, body) {
  last = d;
  lastBody = body;
  const rows = [[t('cmp.this'), d, body]];
  const scs = d.scenarios || [];
  const bodies = scs.map((s, i) => ({ ...body, scenarios: undefined, ...pick(body.scenarios[i]) }));
  const own = await Promise.all(bodies.map((b) => (b.monteCarlo || b.historical ? oneAtATime(() => api('POST', '/calculator', b)).catch(() => null) : null)));
  if (last !== d) return;
  scs.forEach((s, i) => rows.push([s.name, { ...s, monteCarlo: own[i]?.monteCarlo, historical: own[i]?.historical }, bodies[i]]));
  for (const p of all) if (runs.has(p.id)) rows.push([p.name, runs.get(p.id), p.input]);
  $('compare').hidden = rows.length < 2;
  const cur = (b) => b.currency || currency();
  const sr = (o) => (o ? rateText(o.successRate) : '—');
  const differ = inputs.filter(([, get]) => new Set(rows.map(([, , b]) => JSON.stringify(get(b) ?? null))).size > 1);
  const outcomes = [
    ['fiAge', 'calc.ageAtFI', (x) => x.fiAge ?? '—'], ['years', 'calc.yearsToFI', (x) => yearsText(x.yearsToFI)],
    ['lasts', 'calc.lastsTo', (x, b) => lastsText(x.depletionAge, endAge(b))], ['mc', 'cmp.mc', (x) => sr(x.monteCarlo)],
    ['hist', 'cmp.hist', (x) => sr(x.historical)], ['tax', 'hh.lifetimeTax', (x, b) => (typeof x.lifetimeTax === 'number' ? money(x.lifetimeTax, cur(b)) : '—')],
    ['end', 'hh.b.end', (x, b) => money(x.finalBalanceReal, cur(b))],
  ];
  const names = rows.map(([name]) => name);
  const line = (k, label, cell, cls) => el('tr', { 'data-k': k, class: cls }, el('th', { scope: 'row' }, label, cls ? el('span', { class: 'sr' }, ` (${t('cmp.differs')})`) : ''),
    rows.map(([, x, b], i) => el('td', { 'data-label': names[i] }, cell(x, b))));
  $('compare-table').replaceChildren(el('caption', { class: 'sr' }, t('cmp.h')),
    el('thead', {}, el('tr', {}, el('th', { scope: 'col' }, t('cmp.what')), names.map((n) => el('th', { scope: 'col' }, n)))),
    el('tbody', {}, differ.map(([k, get, label, fmt]) => line(k, t(label), (x, b) => fmt(get(b), b), 'differs')),
      outcomes.map(([k, label, cell]) => line(k, t(label), cell))));
}

/**
 * The inputs a comparison sets side by side: key, reader, label, format.
 * @type {[string, (b: any) => any, string, (v: any, b: any) => string][]}
 */
const inputs = (() => {
  const amount = (v, b) => (typeof v === 'number' ? money(v, b.currency || currency()) : '—');
  const plain = (v) => (v === undefined || v === null || v === '' ? '—' : String(v));
  const rate = (v) => (typeof v === 'number' ? pct(v) : '—');
  const savings = (b) => (b.accounts ? b.accounts.reduce((s, a) => s + (a.balance || 0), 0) : b.currentSavings);
  return [
    ['targetRetirementAge', (b) => b.targetRetirementAge, 'calc.retireAt', plain],
    ['partnerRetirementAge', (b) => b.partner?.retirementAge, 'cmp.partnerRetire', plain],
    ['annualExpenses', (b) => b.annualExpenses, 'field.spending', amount],
    ['retirementExpenses', (b) => b.retirementExpenses, 'calc.retirementSpending', amount],
    ['annualIncome', (b) => b.annualIncome, 'cmp.income', amount],
    ['savings', savings, 'calc.investedToday', amount],
    ['cityId', (b) => b.cityId, 'calc.city', plain],
    ['taxCountry', (b) => b.tax?.country, 'hh.taxCountry', plain],
    ['expectedReturn', (b) => b.expectedReturn, 'calc.return', rate],
    ['withdrawalRate', (b) => b.withdrawalRate, 'field.withdrawalRate', rate],
  ];
})();

/** A scenario's own fields (the page's scenarios change spending and income). */
const pick = (s) => Object.fromEntries(Object.entries(s).filter(([k]) => k !== 'name'));

// The check-in: this year's balance of each account (one sum without
// accounts), answered with what the strategy lets you spend and the odds.
const ciForm = /** @type {HTMLFormElement} */ (document.getElementById('checkin'));
const ciSt = $('checkin-status');

const hint = () => {
  $('checkin-hint').textContent = t(plan.input.accounts ? 'ci.hint' : 'ci.hintOne', { name: plan.name, cur: plan.input.currency || currency() });
  const next = plan.createdAt ? nextCheckIn(plan.checkinDate, plan.createdAt) : null;
  $('checkin-next').textContent = next ? t('ci.next', { date: new Intl.DateTimeFormat(locale(), { dateStyle: 'long', timeZone: 'UTC' }).format(next) }) : '';
};

/**
 * The plan's next check-in from today: its checkinDate (MM-DD), else the
 * anniversary of its saving, never in the year it was saved; a 29 February
 * falls on the 28th in other years. The server raises checkin.due on it.
 * @param {string|undefined} mmdd
 * @param {string} created
 */
export function nextCheckIn(mmdd, created, now = new Date()) {
  const c = new Date(created);
  const [m, d] = mmdd ? mmdd.split('-').map(Number) : [c.getUTCMonth() + 1, c.getUTCDate()];
  const on = (y) => {
    const x = new Date(Date.UTC(y, m - 1, d));
    return x.getUTCMonth() === m - 1 ? x : new Date(Date.UTC(y, m - 1, d - 1));
  };
  let y = Math.max(now.getUTCFullYear(), c.getUTCFullYear() + 1);
  if (on(y).getTime() < Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate())) y++;
  return on(y);
}

function showCheckIn() {
  ciForm.hidden = !plan?.input;
  $('checkin-result').hidden = true;
  if (!plan?.input) return;
  const input = plan.input;
  hint();
  const field = (id, label, path, v) => el('div', { class: 'field' }, el('label', { for: id }, label),
    el('input', { id, 'data-path': path, type: 'number', inputmode: 'decimal', min: '0', step: 'any', value: v ?? '', required: true }));
  $('checkin-fields').replaceChildren(...(input.accounts
    ? input.accounts.map((a, i) => field('ci-' + i, tNodes('ci.balanceOf', { account: accountNode(a.id, input) }), 'balances.' + a.id, a.balance))
    : [field('ci-total', t('ci.total'), 'currentSavings', input.currentSavings)]));
}

/** The plan's spending at age: its retirement spending, else its spending, changed by its phases. */
function planSpend(input, age) {
  let s = input.retirementExpenses ?? input.annualExpenses;
  for (const ph of [...(input.spending || [])].sort((a, b) => a.fromAge - b.fromAge)) if (ph.fromAge <= age) s = ph.amount;
  return s;
}

ciForm.addEventListener('submit', async (e) => {
  e.preventDefault();
  clearFieldErrors(ciForm);
  const p = plan;
  const inputs = [...ciForm.querySelectorAll('#checkin-fields input')].map((x) => /** @type {HTMLInputElement} */ (x));
  // An account left empty keeps its saved balance.
  const body = p.input.accounts
    ? { balances: Object.fromEntries(inputs.filter((x) => x.value.trim() !== '').map((x) => [x.dataset.path.slice(9), numberOf(x)])) }
    : { currentSavings: numberOf(inputs[0]) };
  status(ciSt, 'loading', t('ci.checking'));
  try {
    const c = await api('POST', '/plans/' + p.id + '/checkin', body);
    status(ciSt, '', '');
    showAnswer(c, p);
  } catch (err) {
    // A balance the API refuses is marked on its field, in the page's language.
    const rest = fieldErrors(ciForm, (err.details || []).map((x) => ({ ...x, message: t('ci.badAmount') })));
    status(ciSt, 'error', err.details?.length && !rest.length ? t('js.checkFields') : describe(err));
  }
});

function showAnswer(c, p) {
  const m = (v) => money(v, c.currency || p.input.currency || currency());
  const g = c.guardrails;
  const s = c.successRates;
  $('checkin-stats').replaceChildren(
    stat(c.retired ? t('ci.spendNow') : t('ci.spendFrom', { age: c.drawdownAge ?? '—' }), m(c.spending), 'ci-spend'),
    stat(t('ci.rate'), pct(c.withdrawalRate), 'ci-rate'),
    ...(g ? [stat(t('ci.guard'), t('ci.guardState', { cut: m(g.cutBelowPortfolio), raise: m(g.raiseAbovePortfolio), by: pct(g.adjustment, 0) }), 'ci-guard')] : []),
    ...(s.monteCarlo === null ? [] : [stat(t('ci.mc'), pct(s.monteCarlo), 'ci-mc')]),
    stat(t('ci.hist', { n: s.historicalWindows, years: s.windowYears }), rateText(s.historical), 'ci-hist'));
  const want = planSpend(p.input, c.drawdownAge ?? c.age);
  const diff = c.spending - want;
  const cmp = Math.abs(diff) < Math.max(1, want * 0.005) ? t('ci.same')
    : t(diff > 0 ? 'ci.more' : 'ci.less', { diff: m(Math.abs(diff)), plan: m(want) });
  let say = c.drawdownAge === null ? t('ci.never')
    : t(c.retired ? 'ci.sayNow' : 'ci.sayLater', { name: p.name, spend: m(c.spending), year: c.drawdownYear, age: c.drawdownAge, cmp });
  if (c.depletionAge !== null) say += ' ' + t('ci.runsOut', { age: c.depletionAge });
  $('checkin-say').textContent = say;
  $('checkin-result').hidden = false;
}
