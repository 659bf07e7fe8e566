// One country's tax with its line-by-line breakdown, and (pro) a ranking of
// countries by after-tax income.
import { api, describe, status, fieldErrors, clearFieldErrors, el, money, pct, numberOf, requireSession } from './common.js';

const form = /** @type {HTMLFormElement} */ (document.getElementById('tax'));
const st = document.getElementById('tax-status');
let countries = [];
const parts = ['employment', 'selfEmployment', 'pension', 'interest', 'dividends', 'capitalGains'];

function income() {
  const inc = {};
  for (const p of parts) {
    const v = numberOf(form[p]);
    if (v !== undefined) inc[p] = v;
  }
  return inc;
}

function fillCountry() {
  const c = countries.find((x) => x.code === form.country.value);
  if (!c) return;
  form.year.replaceChildren(...c.years.slice().reverse().map((y) => el('option', { value: y, selected: y === c.latestYear }, String(y))));
  form.region.replaceChildren(el('option', { value: '' }, 'national only'), ...(c.regions || []).map((r) => el('option', { value: r.code }, r.name)));
  form.region.disabled = !(c.regions || []).length;
  document.querySelector('label[for=employment]').closest('fieldset').querySelector('legend').textContent = `Yearly income, in ${c.currency}`;
}

form.country.addEventListener('change', fillCountry);

form.addEventListener('submit', async (e) => {
  e.preventDefault();
  clearFieldErrors(form);
  const body = { country: form.country.value, year: Number(form.year.value), income: income() };
  if (form.region.value) body.region = form.region.value;
  status(st, 'loading', 'Calculating…');
  try {
    const d = await api('POST', '/tax/calculate', body);
    status(st, '', '');
    const m = (v) => money(v, d.currency);
    document.getElementById('result').replaceChildren(
      el('dl', { class: 'stats' },
        el('div', {}, el('dt', {}, 'Total tax'), el('dd', { id: 'total-tax' }, m(d.totalTax))),
        el('div', {}, el('dt', {}, 'Effective rate'), el('dd', {}, pct(d.effectiveRate))),
        el('div', {}, el('dt', {}, 'Marginal rate'), el('dd', {}, pct(d.marginalRate))),
        el('div', {}, el('dt', {}, 'After tax'), el('dd', {}, m(d.afterTaxIncome)))),
      el('p', {}, `Income tax ${m(d.incomeTax)} · social contributions ${m(d.socialContributions)} · capital tax ${m(d.capitalTax)}${d.regionalTax !== undefined && d.regionalTax !== null ? ` · regional tax ${m(d.regionalTax)}` : ''}`),
      el('h3', { id: 'lines-h' }, 'Line by line'),
      el('div', { class: 'table-wrap', tabindex: 0, role: 'region', 'aria-labelledby': 'lines-h' }, el('table', { id: 'breakdown' },
        el('thead', {}, el('tr', {}, ['Line', 'Category', 'Base', 'Rate', 'Amount'].map((h, i) => el('th', { scope: 'col', class: i < 2 ? 'left' : '' }, h)))),
        el('tbody', {}, d.breakdown.map((b) => el('tr', {},
          el('td', { class: 'left' }, b.label), el('td', { class: 'left' }, b.category),
          el('td', {}, m(b.base)), el('td', {}, b.kind === 'deduction' ? '—' : pct(b.rate, 2)),
          el('td', {}, b.kind === 'deduction' ? `−${m(b.amount)} from the base` : m(b.amount))))))));
  } catch (err) {
    if (err.details?.length) fieldErrors(form, err.details);
    status(st, 'error', describe(err));
  }
});

document.getElementById('optimize').addEventListener('click', async () => {
  clearFieldErrors(form);
  const ost = document.getElementById('opt-status');
  status(ost, 'loading', 'Ranking countries…');
  try {
    const d = await api('POST', '/tax/optimize', { country: form.country.value, income: income() });
    status(ost, '', `Exchange rates of ${d.fxAsOf}. Now: ${money(d.current.afterTaxIncomeUSD)} after tax in ${d.current.name}.`);
    document.getElementById('opt').replaceChildren(el('ol', { class: 'recs', id: 'suggestions' }, d.suggestions.slice(0, 15).map((s) => el('li', {},
      el('strong', {}, s.name + (s.program ? ` — ${s.program.name || s.program.id || s.program}` : '')),
      `: ${money(s.afterTaxIncomeUSD)} after tax (${pct(s.effectiveRate)} effective), ${s.gainUSD >= 0 ? '+' : ''}${money(s.gainUSD)} a year`,
      s.eligibility?.length ? el('details', {}, el('summary', {}, 'Who qualifies'), el('ul', {}, s.eligibility.map((e) => el('li', {}, e)))) : ''))));
  } catch (err) {
    if (err.details?.length) fieldErrors(form, err.details);
    status(ost, 'error', describe(err));
  }
});

async function init() {
  const s = await requireSession(document.getElementById('page'));
  if (!s) return;
  status(st, 'loading', 'Loading countries…');
  try {
    countries = await api('GET', '/tax/countries');
    countries.sort((a, b) => a.name.localeCompare(b.name));
    form.country.replaceChildren(...countries.map((c) => el('option', { value: c.code, selected: c.code === 'GB' }, `${c.name} (${c.currency})`)));
    fillCountry();
    status(st, '', '');
    if (s.tier !== 'pro') document.getElementById('optimize').title = 'Needs the pro tier';
  } catch (err) {
    status(st, 'error', describe(err));
  }
}
init();
