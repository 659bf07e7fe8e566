// The decisions and the explanations of a household plan. "What may we
// spend, and what should we do?" asks the optimiser (POST /calculator with
// optimize) for the spending the plan can bear and the decisions that buy
// it, each with its worth, and applies those the form holds. "Why this
// tax?" asks the tax engine for the first year's return rule by rule
// (POST /tax/calculate with explain).
import { api, el, money, pct, t, describe, status, apiText } from './common.js';
import { taxCountryOf } from './household.js';

/** @type {{d: any, body: any, apply: (x: any) => void} | null} */
let shown = null;
let found = null;

const box = document.getElementById('decide');
const st = document.getElementById('decide-status');
const out = document.getElementById('decide-out');
const whyBox = document.getElementById('why');
const whySt = document.getElementById('why-status');
const orderKey = { conventional: 'hh.orderConventional', proportional: 'hh.orderProportional', 'tax-smart': 'hh.orderTaxSmart' };

/**
 * Shows the two panels for a household answer d of the request body (the
 * last answers are set aside: they were for the plan before); apply(x)
 * writes decisions into the form and calculates.
 */
export function showDecide(d, body, apply) {
  shown = { d, body, apply };
  found = null;
  box.hidden = false;
  out.hidden = true;
  status(st, '', '');
  const c = body.tax?.country ? taxCountryOf(body.tax.country) : null;
  const first = d.projections[0];
  // The first year's wages in the tax country's own currency: the tax engine's return of them.
  whyBox.hidden = !c || !(first.income?.employment > 0) || (d.currency && d.currency !== c.currency) || first.residence !== body.tax.country;
  document.getElementById('why-out').hidden = true;
  status(whySt, '', '');
}

/** Hides both panels (a one-pot plan). */
export function hideDecide() {
  shown = null;
  box.hidden = whyBox.hidden = true;
}

document.getElementById('decide-go').addEventListener('click', async () => {
  if (!shown) return;
  const { body } = shown;
  const req = { ...body, optimize: { objective: 'spending' } };
  delete req.monteCarlo;
  delete req.historical;
  delete req.scenarios;
  status(st, 'loading', t('dec.searching'));
  out.hidden = true;
  try {
    const d = await api('POST', '/calculator', req);
    if (shown?.body !== body) return; // the plan changed meanwhile
    status(st, '', '');
    found = d.optimized;
    render(found, body);
  } catch (err) {
    status(st, 'error', describe(err));
  }
});

/** The decisions found, each with what it is worth alone. */
function render(o, body) {
  out.hidden = false;
  const stats = document.getElementById('decide-stats');
  const list = document.getElementById('decide-list');
  const apply = /** @type {HTMLButtonElement} */ (document.getElementById('decide-apply'));
  if (!o.feasible) {
    stats.replaceChildren();
    list.replaceChildren(el('li', apiText(), o.why || ''));
    apply.hidden = true;
    return;
  }
  const stat = (label, value, id) => el('div', {}, el('dt', {}, label), el('dd', { id }, value));
  const g = o.gain || { overPlan: 0, overBaseline: 0 };
  stats.replaceChildren(
    stat(t('dec.spend'), money(o.value), 'dec-spend'),
    stat(t('dec.overPlan'), money(g.overPlan), 'dec-over-plan'),
    stat(t('dec.overBaseline'), money(g.overBaseline), 'dec-over-baseline'),
    ...(o.lifetimeTaxPV ? [stat(t('dec.taxPV'), money(o.lifetimeTaxPV), 'dec-tax-pv')] : []));
  // A worth within the search's precision (a fifth of a percent of the spending) is noise.
  const worth = (k) => {
    const w = (o.worth || []).find((x) => x.decision === k);
    return w && Math.abs(w.amount) >= Math.max(1, 2e-3 * Math.abs(o.value)) ? ' ' + t('dec.worth', { amount: money(w.amount) }) : '';
  };
  const x = o.decisions || {};
  const items = [];
  if (x.retirementAge !== undefined && x.retirementAge !== null) items.push(['retirementAge', t('dec.retire', { age: x.retirementAge })]);
  for (const c of x.claiming || []) {
    const p = body.pensions?.[c.pension] || {};
    items.push(['claiming', t('dec.claim', { kind: t('hh.kind.' + c.kind), owner: t('hh.owner.' + (p.owner || 'self')), age: c.age + (c.month ? ' ' + t('dec.months', { n: c.month }) : '') })]);
  }
  for (const s of x.order || []) items.push(['order', t('dec.order', { age: s.fromAge, order: orderKey[s.order] ? t(orderKey[s.order]) : s.order })]);
  const conv = x.conversions || [];
  if (conv.length) {
    const total = conv.reduce((s, c) => s + c.amount, 0);
    items.push(['conversions', t('dec.conversions', { total: money(total), from: conv[0].age, to: conv[conv.length - 1].age }),
      el('span', { class: 'hint' }, ' ' + conv.map((c) => `${c.age}: ${money(c.amount)}`).join(' · '))]);
  }
  // Each decision's worth once, on its first line.
  const seen = new Set();
  list.replaceChildren(...items.map(([k, text, more]) => {
    const w = seen.has(k) ? '' : worth(k);
    seen.add(k);
    return el('li', { 'data-decision': k }, text, w ? el('strong', {}, w) : null, more || null);
  }), ...(items.length ? [] : [el('li', {}, t('dec.none'))]));
  apply.hidden = !items.some(([k]) => k !== 'conversions');
  document.getElementById('decide-notes').replaceChildren(...(o.notes || []).map((n) => el('li', apiText(), n)));
}

document.getElementById('decide-apply').addEventListener('click', () => {
  if (!shown || !found?.feasible) return;
  shown.apply(found.decisions || {});
});

document.getElementById('why-go').addEventListener('click', async () => {
  if (!shown) return;
  const { d, body } = shown;
  const c = taxCountryOf(body.tax.country);
  const year = d.projections[0].year;
  const joint = body.tax.filing === 'joint' && body.partner;
  const req = {
    country: body.tax.country, income: { employment: body.annualIncome }, age: body.currentAge, explain: true,
    ...(c.years?.includes(year) ? { year } : {}),
    ...(body.tax.region ? { region: body.tax.region } : {}),
    ...(joint ? { filing: 'joint', partnerIncome: { employment: body.partner.annualIncome || 0 }, partnerAge: body.partner.age } : {}),
  };
  status(whySt, 'loading', t('js.calculating'));
  try {
    const r = await api('POST', '/tax/calculate', req);
    status(whySt, '', '');
    explain(r, joint);
  } catch (err) {
    status(whySt, 'error', describe(err));
  }
});

/** The rules that fired, in order: base, rate and amount, and where the figures come from. */
function explain(r, joint) {
  const head = [t('why.rule'), t('why.base'), t('why.rate'), t('why.amount')];
  document.getElementById('why-say').textContent = t(joint ? 'why.sayJoint' : 'why.say', { year: r.year, total: money(r.totalTax, r.currency) });
  document.getElementById('why-table').replaceChildren(
    el('caption', { class: 'sr' }, t('why.h')),
    el('thead', {}, el('tr', {}, head.map((h) => el('th', { scope: 'col' }, h)))),
    el('tbody', {}, (r.trace || []).map((x) => el('tr', {},
      el('td', { 'data-label': head[0], class: 'left' }, el('span', apiText(), x.label),
        (x.source || []).length ? el('details', {}, el('summary', { class: 'hint' }, t('why.sources', { n: x.source.length })),
          ...x.source.map((s) => el('span', { class: 'hint src', ...apiText() }, `${s.title}, ${s.section}` + (s.asOf ? ` (${s.asOf})` : '')))) : null),
      el('td', { 'data-label': head[1] }, money(x.base, r.currency)),
      el('td', { 'data-label': head[2] }, pct(x.rate)),
      el('td', { 'data-label': head[3] }, money(x.amount, r.currency))))));
  document.getElementById('why-out').hidden = false;
}
