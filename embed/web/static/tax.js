// One country's tax with its line-by-line breakdown, and (pro) a ranking of
// countries by after-tax income.
import { api, describe, status, fieldErrors, clearFieldErrors, el, money, pct, numberOf, requireSession, loadFormat, locale, t, tn, apiText, countryName } from './common.js';

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

/** The country chosen in the form. */
const chosen = () => countries.find((x) => x.code === form.country.value);

function fillCountry() {
  const c = chosen();
  if (!c) return;
  form.year.replaceChildren(...c.years.slice().reverse().map((y) => el('option', { value: y, selected: y === c.latestYear }, String(y))));
  fillRegions();
  document.querySelector('label[for=employment]').closest('fieldset').querySelector('legend').textContent = t('tax.yearlyIn', { cur: c.currency });
  clearResult();
}

/** Offers the regions the chosen tax year models; keeps the chosen one when it still is. */
function fillRegions() {
  const c = chosen();
  if (!c) return;
  const year = Number(form.year.value);
  const was = form.region.value;
  const all = c.regions || [];
  const regions = all.filter((r) => !r.years || r.years.includes(year));
  form.region.replaceChildren(el('option', { value: '' }, t('tax.national')),
    ...regions.map((r) => el('option', { value: r.code, selected: r.code === was }, r.name)));
  form.region.disabled = !regions.length;
  const left = all.length - regions.length;
  const hint = document.getElementById('region-hint');
  hint.hidden = !left;
  hint.textContent = left ? tn('tax.otherYears', left) : '';
}

/** Removes a result that no longer answers the form. */
function clearResult() {
  document.getElementById('result').replaceChildren(el('p', {}, t('tax.choose')));
}

form.country.addEventListener('change', fillCountry);
form.year.addEventListener('change', () => { fillRegions(); clearResult(); });
form.region.addEventListener('change', clearResult);

const isRate = (s) => /^[\d.,]+\s?%$/.test(s.trim());

/**
 * The words of a breakdown line: the rule's name from the country's list (or
 * the region's, for a regional rule the list does not name),
 * then what the line adds to it (its band or income layer), without
 * repeating the rate the Rate column shows or a word twice.
 */
function lineName(c, b, region) {
  const rule = c?.modelled?.rules?.find((r) => r.id === b.rule);
  // The list names the rules of the latest year; a regional line of another
  // year is at least named by its region.
  const name = rule?.label ?? (b.category === 'regional' ? c?.regions?.find((r) => r.code === region)?.name : undefined);
  const parts = [];
  for (const p of [name, b.layer, b.label]) {
    if (!p || isRate(p) || parts.includes(p)) continue;
    parts.push(p);
  }
  if (!parts.length) parts.push(b.label || b.rule);
  return parts.join(' · ');
}

/** The country's assumptions and what it leaves out, under a result. */
function assumptions(c, d) {
  if (!c) return [];
  const notes = (c.modelled?.notes || []).filter((n) => !/^\d{4}: /.test(n) || n.startsWith(d.year + ': '));
  const local = c.localTax && !d.region ? [c.localTax.note] : [];
  const all = [...notes, ...local];
  return [
    el('details', { class: 'notes', open: all.length <= 6 },
      el('summary', { id: 'assume-h' }, t('tax.assumes', { n: all.length })),
      el('ul', { class: 'notes', id: 'assumptions' }, all.map((n) => el('li', apiText(), n)))),
    c.notModelled?.length ? el('details', { class: 'notes', open: c.notModelled.length <= 6 },
      el('summary', { id: 'not-h' }, t('tax.notModelled', { n: c.notModelled.length })),
      el('ul', { class: 'notes', id: 'not-modelled' }, c.notModelled.map((n) => el('li', apiText(), n)))) : '',
  ];
}

form.addEventListener('submit', async (e) => {
  e.preventDefault();
  clearFieldErrors(form);
  const body = { country: form.country.value, year: Number(form.year.value), income: income() };
  if (form.region.value) body.region = form.region.value;
  status(st, 'loading', t('js.calculating'));
  try {
    const d = await api('POST', '/tax/calculate', body);
    status(st, '', '');
    const c = countries.find((x) => x.code === d.country) || chosen();
    const m = (v) => money(v, d.currency);
    const head = ['line', 'category', 'base', 'rate', 'amount'].map((h) => t('tax.col.' + h));
    document.getElementById('result').replaceChildren(
      el('dl', { class: 'stats' },
        el('div', {}, el('dt', {}, t('tax.total')), el('dd', { id: 'total-tax' }, m(d.totalTax))),
        el('div', {}, el('dt', {}, t('tax.effective')), el('dd', {}, pct(d.effectiveRate))),
        el('div', {}, el('dt', {}, t('tax.marginal')), el('dd', {}, pct(d.marginalRate))),
        el('div', {}, el('dt', {}, t('tax.after')), el('dd', {}, m(d.afterTaxIncome)))),
      el('p', {}, t('tax.parts', { income: m(d.incomeTax), social: m(d.socialContributions), capital: m(d.capitalTax) }) + (d.regionalTax !== undefined && d.regionalTax !== null ? t('tax.regionalPart', { regional: m(d.regionalTax) }) : '')),
      el('h3', { id: 'lines-h' }, t('tax.lines', { year: d.year })),
      el('div', { class: 'table-wrap', tabindex: 0, role: 'region', 'aria-labelledby': 'lines-h' }, el('table', { id: 'breakdown', class: 'reflow' },
        el('thead', {}, el('tr', {}, head.map((h, i) => el('th', { scope: 'col', class: i < 2 ? 'left' : '' }, h)))),
        el('tbody', {}, d.breakdown.map((b) => el('tr', {},
          el('td', { class: 'left', 'data-label': head[0] }, lineName(c, b, d.region)), el('td', { class: 'left', 'data-label': head[1] }, t('taxcat.' + b.category) === 'taxcat.' + b.category ? b.category : t('taxcat.' + b.category)),
          el('td', { 'data-label': head[2] }, m(b.base)), el('td', { 'data-label': head[3] }, b.kind === 'deduction' ? t('tax.deducted') : pct(b.rate, 2)),
          el('td', { 'data-label': head[4] }, b.kind === 'deduction' ? `−${m(b.amount)}` : m(b.amount))))))),
      ...assumptions(c, d));
  } catch (err) {
    // A result of other inputs must not stay beside the error.
    clearResult();
    if (err.details?.length) fieldErrors(form, err.details);
    status(st, 'error', describe(err));
  }
});

document.getElementById('optimize').addEventListener('click', async () => {
  clearFieldErrors(form);
  const ost = document.getElementById('opt-status');
  status(ost, 'loading', t('tax.ranking'));
  try {
    const d = await api('POST', '/tax/optimize', { country: form.country.value, income: income() });
    status(ost, '', t('tax.optNow', { date: d.fxAsOf, amount: money(d.current.afterTaxIncomeUSD, 'USD'), country: countryName(d.current.country, d.current.name) }));
    document.getElementById('opt').replaceChildren(el('ol', { class: 'recs', id: 'suggestions' }, d.suggestions.slice(0, 15).map((s) => el('li', {},
      el('strong', {}, countryName(s.country, s.name) + (s.program ? ` — ${s.program.name || s.program.id || s.program}` : '')),
      ': ' + t('tax.optLine', { amount: money(s.afterTaxIncomeUSD, 'USD'), rate: pct(s.effectiveRate), gain: (s.gainUSD >= 0 ? '+' : '') + money(s.gainUSD, 'USD') }),
      s.eligibility?.length ? el('details', {}, el('summary', {}, t('tax.who')), el('ul', {}, s.eligibility.map((e) => el('li', apiText(), e)))) : ''))));
  } catch (err) {
    if (err.details?.length) fieldErrors(form, err.details);
    status(ost, 'error', describe(err));
  }
});

async function init() {
  const s = await requireSession(document.getElementById('page'));
  if (!s) return;
  await loadFormat();
  status(st, 'loading', t('tax.loadingCountries'));
  try {
    countries = await api('GET', '/tax/countries');
    for (const c of countries) c.name = countryName(c.code, c.name);
    countries.sort((a, b) => a.name.localeCompare(b.name, document.documentElement.lang));
    // The country of the user's locale (de-CH: Switzerland) comes first chosen.
    const region = locale().slice(-2).toUpperCase();
    const home = countries.some((c) => c.code === region) ? region : 'GB';
    form.country.replaceChildren(...countries.map((c) => el('option', { value: c.code, selected: c.code === home }, `${c.name} (${c.currency})`)));
    fillCountry();
    status(st, '', '');
    if (s.tier !== 'pro') document.getElementById('optimize').title = t('js.needsPro');
  } catch (err) {
    status(st, 'error', describe(err));
  }
}
init();
