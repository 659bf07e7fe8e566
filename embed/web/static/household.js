// The household part of the calculator: a partner, accounts with their tax
// wrappers, pensions, spending phases, the withdrawal order, conversions,
// moves abroad and the tax return; and what a household plan's answer adds
// (lifetime tax, the bridge years, the conventional baseline, balances by
// account).
import { api, el, money, compact, pct, t, tn, tNodes, numberOf, apiText, countryName, chosenCurrency, lang } from './common.js';
import { lineChart } from './chart.js';

const box = /** @type {HTMLDetailsElement} */ (document.getElementById('household'));
const $ = (id) => /** @type {HTMLInputElement} */ (document.getElementById(id));
const taxCountry = /** @type {HTMLSelectElement} */ (document.getElementById('tax-country'));
const taxRegion = /** @type {HTMLSelectElement} */ (document.getElementById('tax-region'));
const hasPartner = $('has-partner');
/** @type {{code:string,name:string,currency:string,years?:number[],jointYears?:number[],localTax?:{region:string|null}|null,regions?:{code:string,name:string}[],wrappers?:{id:string,name:string}[]}[]} */
let countries = [];

let openedCurrency = '';

/**
 * The plan's currency: the opened plan's, else the one the user chose,
 * else the tax country's; '' leaves it to the API (the tax country's, else USD).
 */
export function planCurrency() {
  return openedCurrency || chosenCurrency() || country(taxCountry.value)?.currency || '';
}

const owners = () => ['self', 'partner'].filter((o) => o === 'self' || hasPartner.checked).map((o) => [o, t('hh.owner.' + o)]);
const kinds = ['generic', 'us-social-security', 'ca-cpp', 'ca-oas', 'gb-state-pension', 'de-statutory-pension'];
const country = (code) => countries.find((c) => c.code === code);
/** A tax country of GET /tax/countries (its currency, years, regions), or undefined. */
export const taxCountryOf = country;

/** The account types of the chosen tax country: cash, taxable and its wrappers. */
function accountTypes() {
  const w = country(taxCountry.value)?.wrappers || [];
  return [['cash', t('hh.type.cash')], ['taxable', t('hh.type.taxable')], ...w.map((x) => [x.id, x.name, true])];
}
const countryOptions = () => countries.map((c) => [c.code, c.name]);
const regionOptions = (code) => [['', t('hh.noRegion')], ...(country(code)?.regions || []).map((r) => [r.code, r.name, true])];

/**
 * The rows of each list: its container, data path, the label of its remove
 * button, and its fields ({k, label, options?: () => [value, text][],
 * num?: true}).
 */
const lists = {
  accounts: {
    box: 'accounts', remove: 'hh.removeAccount', fields: [
      { k: 'type', label: 'hh.f.type', options: accountTypes, wide: true },
      { k: 'owner', label: 'hh.f.owner', options: owners },
      { k: 'balance', label: 'hh.f.balance', num: true },
      { k: 'costBasis', label: 'hh.f.costBasis', num: true, when: (row) => row.type === 'taxable' },
      { k: 'annualContribution', label: 'hh.f.contribution', num: true },
      { k: 'employerContribution', label: 'hh.f.employer', num: true, when: (row) => row.type !== 'cash' && row.type !== 'taxable' },
    ],
  },
  pensions: {
    box: 'pensions', remove: 'hh.removePension', fields: [
      { k: 'kind', label: 'hh.f.kind', options: () => kinds.map((k) => [k, t('hh.kind.' + k)]), wide: true },
      { k: 'owner', label: 'hh.f.owner', options: owners },
      { k: 'amount', label: 'hh.f.pensionAmount', num: true },
      { k: 'fromAge', label: 'hh.f.fromAge', num: true },
    ],
  },
  spending: {
    box: 'phases', remove: 'hh.removePhase', fields: [
      { k: 'fromAge', label: 'hh.f.fromAge', num: true },
      { k: 'amount', label: 'hh.f.spend', num: true },
    ],
  },
  relocations: {
    box: 'moves', remove: 'hh.removeMove', fields: [
      { k: 'atAge', label: 'hh.f.atAge', num: true },
      { k: 'country', label: 'hh.f.country', options: countryOptions },
      { k: 'region', label: 'hh.f.region', options: (row) => regionOptions(row.country), wide: true },
      { k: 'cityId', label: 'hh.f.city', city: true },
    ],
  },
};

let cityTimer = 0;
/**
 * Offers the cities of Places whose name (or local name) holds what input
 * has typed, in the page's datalist #city-options; what is typed is sent as
 * it is, and the API names it when it is no city's id.
 */
export function suggestCities(input) {
  input.addEventListener('input', () => {
    clearTimeout(cityTimer);
    const q = input.value.trim();
    if (q.length < 2) return;
    cityTimer = setTimeout(async () => {
      try {
        const cities = await api('GET', '/geo/cities?limit=8&q=' + encodeURIComponent(q));
        document.getElementById('city-options').replaceChildren(...cities.map((c) => el('option', { value: c.id }, `${c.name}, ${countryName(c.country, c.countryName)}`)));
      } catch { /* suggestions only */ }
    }, 250);
  });
}

/**
 * A long name shortened to fit a select: what comes before its first " ("
 * ("Alabama (state tax; …)" is "Alabama"), or when that is long too its
 * first word and the parenthesis ("Freizügigkeitsguthaben (2. Säule)").
 */
function head(s) {
  const m = /^(.{3,}?) \((.*)\)?$/s.exec(s);
  if (s.length <= 30 || !m) return s;
  return m[1].length <= 30 ? m[1] : `${m[1].split(' ')[0]} (${m[2].replace(/\)$/, '')})`;
}
/** An option of the API's names (in English): its head shown, its whole name kept for beneath the select. */
const apiOption = (v, text, selected) => el('option', { value: v, selected, ...apiText(), 'data-full': head(text) === text ? null : text }, head(text));

/** Beneath a select whose choice shows only its name's head, the whole name. */
function fullName(sel) {
  const full = sel.selectedOptions[0]?.dataset.full;
  let hint = document.getElementById(sel.id + '-full');
  if (!full) {
    hint?.remove();
    sel.removeAttribute('aria-describedby');
    return;
  }
  if (!hint) sel.after(hint = el('p', { class: 'hint', id: sel.id + '-full', ...apiText() }));
  hint.textContent = full;
  sel.setAttribute('aria-describedby', hint.id);
}

/** A select of options, keeping value even when the list does not hold it. */
function select(attrs, options, value) {
  // The names of wrappers and regions are the API's, in English.
  const opts = options.map(([v, text, api]) => (api ? apiOption(v, text, v === value) : el('option', { value: v, selected: v === value }, text)));
  if (value && !options.some(([v]) => v === value)) opts.push(el('option', { value, selected: true }, value));
  return el('select', attrs, opts);
}

/** What a row holds beyond its fields (an account's id, keys of the API the form has no field for), kept as it is. */
const extras = new WeakMap();
/** The entries of o but those of keys own. */
export const rest = (o, own) => Object.fromEntries(Object.entries(o || {}).filter(([k]) => !own.includes(k)));

/** Adds a row to list name, filled from values. */
function addRow(name, values = {}) {
  const spec = lists[name];
  const host = document.getElementById(spec.box);
  const i = host.children.length;
  const row = el('div', { class: 'hh-row' });
  const extra = rest(values, spec.fields.map((f) => f.k));
  extras.set(row, extra);
  const draw = () => {
    const v = { ...values, ...readRow(name, row) };
    row.replaceChildren(...spec.fields.filter((f) => !f.when || f.when(v)).map((f) => {
      const id = `${spec.box}${i}-${f.k}`;
      const attrs = { id, 'data-path': `${name}[${i}].${f.k}`, 'data-k': f.k };
      const input = f.options
        ? select(attrs, f.options(v), v[f.k] === undefined ? undefined : String(v[f.k]))
        : f.city
          ? el('input', { ...attrs, list: 'city-options', autocomplete: 'off', spellcheck: 'false', maxlength: 64, value: v[f.k] ?? '' })
          : el('input', { ...attrs, type: 'number', inputmode: 'decimal', step: 'any', min: '0', value: v[f.k] ?? '' });
      // Another type or owner is another account: its id follows them.
      if (f.options) input.addEventListener('change', () => { if (f.k === 'type' || f.k === 'owner') delete extra.id; draw(); });
      if (f.city) suggestCities(/** @type {HTMLInputElement} */ (input));
      return el('div', { class: f.wide ? 'field wide' : 'field' }, el('label', { for: id }, t(f.label)), input);
    }), el('button', { type: 'button', class: 'secondary small', 'aria-label': t(spec.remove, { i: i + 1 }), onclick: () => { row.remove(); renumber(name); syncSavings(); } }, t('calc.remove')));
    for (const sel of row.querySelectorAll('select')) fullName(sel);
  };
  host.append(row);
  draw();
  syncSavings();
  return row;
}

/** The values of a row's fields (numbers as numbers, empty ones left out). */
function readRow(name, row) {
  const out = {};
  for (const c of /** @type {NodeListOf<HTMLInputElement>} */ (row.querySelectorAll('[data-k]'))) {
    const v = c.tagName === 'SELECT' ? c.value || undefined : numberOf(c);
    if (v !== undefined) out[c.dataset.k] = v;
  }
  return out;
}

const rowsOf = (name) => [...document.getElementById(lists[name].box).children].map((r) => ({ ...extras.get(r), ...readRow(name, r) }));

function renumber(name) {
  const rows = rowsOf(name);
  document.getElementById(lists[name].box).replaceChildren();
  rows.forEach((r) => addRow(name, r));
}

/** Accounts replace the amount invested today: its field is off while there are any. */
function syncSavings() {
  const any = document.getElementById('accounts').children.length > 0;
  $('currentSavings').disabled = any;
  $('savings-hint').hidden = !any;
  if (any) $('savings-hint').textContent = t('hh.savingsFromAccounts', { total: money(rowsOf('accounts').reduce((s, r) => s + (typeof r.balance === 'number' ? r.balance : 0), 0), planCurrency() || undefined) });
  if (any) $('currentSavings').setAttribute('aria-describedby', 'savings-hint');
  else $('currentSavings').removeAttribute('aria-describedby');
}

/** Draws every row again: owners follow the partner, types the tax country. */
function redraw() {
  for (const name of Object.keys(lists)) renumber(name);
  syncSavings();
  $('partner-fields').hidden = !hasPartner.checked;
  $('conversions-field').hidden = taxCountry.value !== 'US';
  const regs = regionOptions(taxCountry.value);
  const was = taxRegion.value;
  taxRegion.replaceChildren(...regs.map(([v, text, api]) => (api ? apiOption(v, text, v === was) : el('option', { value: v, selected: v === was }, text))));
  fullName(taxRegion);
  taxRegion.disabled = regs.length < 2;
  const c = country(taxCountry.value);
  const joint = !c || (c.jointYears || []).length > 0;
  const filing = /** @type {HTMLSelectElement} */ (document.getElementById('tax-filing'));
  const jointOpt = /** @type {HTMLOptionElement} */ (filing.querySelector('option[value=joint]'));
  jointOpt.disabled = jointOpt.hidden = !joint;
  if (!joint && filing.value === 'joint') filing.value = '';
  $('tax-hint').textContent = countries.length ? t(taxCountry.value ? 'hh.taxHint' : 'hh.taxNone', { cur: planCurrency() || 'USD' }) : t('hh.taxSignIn');
  document.querySelector('label[for=annualIncome]').textContent = t(taxCountry.value ? 'field.grossIncome' : 'field.income');
}

/** Account ids: a row's own, else from its type: us-401k, us-401k-partner, taxable-2. */
function accountIds(rows) {
  const used = new Set(rows.map((r) => r.id));
  return rows.map((r) => {
    if (r.id) return r.id;
    const base = ((r.type || 'account') + (r.owner === 'partner' ? '-partner' : '')).toLowerCase().replace(/[^a-z0-9-]/g, '-');
    let id = base.slice(0, 32);
    for (let n = 2; used.has(id); n++) id = `${base}-${n}`.slice(0, 32);
    used.add(id);
    return id;
  });
}

/** The request body's keys the household section writes. */
export const householdKeys = ['partner', 'accounts', 'pensions', 'spending', 'relocations', 'withdrawalOrder', 'conversions', 'tax', 'currency'];
const partnerInputs = () => /** @type {NodeListOf<HTMLInputElement>} */ (document.querySelectorAll('#partner-fields input[data-k]'));

/**
 * The household fields of the request body (none when the section is
 * unused); the partner's and the tax's keys without a field are prev's.
 */
export function householdBody(prev = {}) {
  const b = {};
  if (hasPartner.checked) {
    const p = rest(prev.partner, [...partnerInputs()].map((c) => c.dataset.k));
    for (const c of partnerInputs()) {
      let v = numberOf(c);
      // percent on the page, a fraction in the API, as the calculator's own rates
      if (typeof v === 'number' && c.hasAttribute('data-pct')) v = Math.round(v * 1e6) / 1e8;
      if (v !== undefined) p[c.dataset.k] = v;
    }
    b.partner = p;
  }
  const acc = rowsOf('accounts');
  if (acc.length) {
    const ids = accountIds(acc);
    b.accounts = acc.map((r, i) => ({ id: ids[i], ...r }));
  }
  for (const name of ['pensions', 'spending', 'relocations']) {
    const rows = rowsOf(name);
    if (rows.length) b[name] = rows;
  }
  const order = /** @type {HTMLSelectElement} */ (document.getElementById('withdrawal-order')).value;
  if (order !== 'conventional') b.withdrawalOrder = order;
  const conv = numberOf($('conversions'));
  if (taxCountry.value === 'US' && conv !== undefined) b.conversions = { upToRate: typeof conv === 'number' ? Math.round(conv * 1e6) / 1e8 : conv };
  if (taxCountry.value) {
    b.tax = /** @type {{country: string, region?: string, filing?: string}} */ ({ ...rest(prev.tax, ['country', 'region', 'filing']), country: taxCountry.value });
    if (taxRegion.value && taxRegion.value !== country(taxCountry.value)?.localTax?.region) b.tax.region = taxRegion.value;
    const filing = /** @type {HTMLSelectElement} */ (document.getElementById('tax-filing')).value;
    if (filing && hasPartner.checked) b.tax.filing = filing;
    const cur = planCurrency();
    if (cur) b.currency = cur;
  }
  return b;
}

/** Fills the section from a request body (a shared link or a saved plan). */
export function fillHousehold(body) {
  const opt = (id, v) => { const s = /** @type {HTMLSelectElement} */ (document.getElementById(id)); if (v && ![...s.options].some((o) => o.value === v)) s.append(el('option', { value: v }, v)); s.value = v || s.options[0].value; };
  openedCurrency = body.currency || '';
  opt('tax-country', body.tax?.country);
  redraw();
  opt('tax-region', body.tax?.region);
  fullName(taxRegion);
  opt('tax-filing', body.tax?.filing);
  opt('withdrawal-order', typeof body.withdrawalOrder === 'string' ? body.withdrawalOrder : 'conventional');
  orderHint();
  $('conversions').value = body.conversions ? String(Math.round(body.conversions.upToRate * 1e8) / 1e6) : '';
  hasPartner.checked = !!body.partner;
  for (const c of partnerInputs()) {
    let v = body.partner?.[c.dataset.k];
    if (typeof v === 'number' && c.hasAttribute('data-pct')) v = Math.round(v * 1e8) / 1e6;
    if (body.partner) c.value = v === undefined ? '' : String(v);
  }
  for (const name of Object.keys(lists)) {
    document.getElementById(lists[name].box).replaceChildren();
    for (const r of body[name] || []) addRow(name, r);
  }
  redraw();
  if (Object.keys(householdBody()).length) box.open = true;
}

/** Loads the tax countries (signed in only: the list is not public). */
export async function loadCountries(signedIn) {
  if (signedIn) {
    try {
      countries = await api('GET', '/tax/countries');
      for (const c of countries) c.name = countryName(c.code, c.name);
      countries.sort((a, b) => a.name.localeCompare(b.name, lang));
      const was = taxCountry.value;
      taxCountry.replaceChildren(el('option', { value: '' }, t('hh.noTax')), ...countries.map((c) => el('option', { value: c.code, selected: c.code === was }, c.name)));
    } catch { countries = []; }
  }
  redraw();
}

hasPartner.addEventListener('change', redraw);
document.getElementById('accounts').addEventListener('input', syncSavings);
// A field's error goes when it is edited.
box.addEventListener('input', (e) => {
  const f = /** @type {HTMLElement} */ (e.target);
  f.removeAttribute('aria-invalid');
  document.getElementById(f.id + '-error')?.remove();
});
taxRegion.addEventListener('change', () => fullName(taxRegion));
const order = /** @type {HTMLSelectElement} */ (document.getElementById('withdrawal-order'));
const orderHint = () => { $('order-hint').textContent = t('hh.orderHint.' + order.value); };
order.addEventListener('change', orderHint);
orderHint();
taxCountry.addEventListener('change', () => {
  taxRegion.value = '';
  openedCurrency = '';
  redraw();
  const def = country(taxCountry.value)?.localTax?.region;
  if (def && [...taxRegion.options].some((o) => o.value === def)) taxRegion.value = def;
  fullName(taxRegion);
});
document.getElementById('add-account').addEventListener('click', () => addRow('accounts', { type: country(taxCountry.value)?.wrappers?.[0]?.id || 'taxable', balance: 0 }).querySelector('select')?.focus());
document.getElementById('add-pension').addEventListener('click', () => addRow('pensions', { kind: 'generic', fromAge: 67 }).querySelector('select')?.focus());
document.getElementById('add-phase').addEventListener('click', () => addRow('spending', { fromAge: 75 }).querySelector('input')?.focus());
document.getElementById('add-move').addEventListener('click', () => addRow('relocations', { country: countries[0]?.code }).querySelector('input')?.focus());

/** An account's name in the results: its type's name, and whose it is with a partner. */
export function accountName(id, body) {
  return accountNode(id, body).textContent;
}

/** The same as an element: a wrapper's name is the API's, in English (lang="en" on a page in another language). */
export function accountNode(id, body) {
  const a = (body.accounts || []).find((x) => x.id === id);
  const type = a?.type || (id.startsWith('us-roth-ira') ? 'us-roth-ira' : 'taxable');
  const name = (type === 'cash' || type === 'taxable') ? t('hh.type.' + type)
    : el('span', apiText(), countries.flatMap((c) => c.wrappers || []).find((w) => w.id === type)?.name || type);
  return el('span', {}, name, body.partner ? ` (${t('hh.owner.' + (a?.owner || (id.endsWith('-partner') ? 'partner' : 'self')))})` : '');
}

/** A figure of a list of stats (dl): its label and value. */
export const stat = (label, value, id) => el('div', {}, el('dt', {}, label), el('dd', { id }, value));
/** The age the money lasts to, in words. */
export const lastsText = (age, end) => (age === null || age === undefined ? t('calc.pastAge', { age: end }) : t('calc.atAge', { age }));

/** The last age a plan runs to: its own, or its partner's when later. */
export const endAge = (b) => Math.max(b.lifeExpectancy ?? 95, b.partner ? b.partner.age - b.currentAge + (b.partner.lifeExpectancy ?? 95) : 0);
/** A success rate: none for a plan that never draws on its savings (null). */
export const rateText = (v) => (v === null ? t('calc.noDrawdown') : pct(v));
/** Years to FI in words. */
export const yearsText = (n) => (n === null ? t('calc.notReached') : n === 0 ? t('calc.now') : tn('calc.years', n));

/** True when the answer is a household plan's (its rows carry accounts). */
export const isHousehold = (d) => Array.isArray(d.projections?.[0]?.accounts);

/**
 * Shows what a household plan adds: lifetime tax, the retirement age, the
 * bridge years, the baseline, the stacked chart; returns the table's
 * columns for the rows by year.
 */
export function showHousehold(d, body) {
  const res = document.getElementById('hh-results');
  const stats = document.getElementById('hh-stats');
  res.hidden = stats.hidden = !isHousehold(d);
  if (res.hidden) return null;
  const end = endAge(body);
  stats.replaceChildren(
    stat(t('hh.retireAge'), d.retirementAge === null || d.retirementAge === undefined ? '—' : String(d.retirementAge), 'retire-age'),
    stat(t('hh.lifetimeTax'), money(d.lifetimeTax), 'lifetime-tax'),
    ...(typeof d.lifetimeTaxPV === 'number' ? [stat(t('hh.lifetimeTaxPV'), money(d.lifetimeTaxPV), 'lifetime-tax-pv')] : []));
  const b = d.baseline;
  const diff = (x, y) => (typeof x === 'number' && typeof y === 'number' ? money(x - y) : '—');
  // Years the money lasts longer (or shorter) than in the conventional order.
  const lastsDiff = (x, y) => {
    const n = (x ?? end) - (y ?? end);
    return n === 0 ? '—' : (n > 0 ? '+' : '−') + tn('calc.years', Math.abs(n));
  };
  const rows = b ? [
    [t('hh.b.tax'), money(d.lifetimeTax), money(b.lifetimeTax), diff(d.lifetimeTax, b.lifetimeTax), 'tax'],
    [t('hh.b.lasts'), lastsText(d.depletionAge, end), lastsText(b.depletionAge, end), lastsDiff(d.depletionAge, b.depletionAge), 'lasts'],
    [t('hh.b.end'), money(d.finalBalanceReal), money(b.endBalanceReal), diff(d.finalBalanceReal, b.endBalanceReal), 'end'],
  ] : [];
  // In one sentence: what the chosen order (and conversions) save or cost in tax.
  const saved = b ? Math.round(b.lifetimeTax - d.lifetimeTax) : 0;
  document.getElementById('baseline-hint').textContent = t('hh.baselineHint') + ' '
    + (saved > 0 ? t('hh.worthSaves', { amount: money(saved) }) : saved < 0 ? t('hh.worthCosts', { amount: money(-saved) }) : t('hh.worthSame'));
  const head = [t('hh.b.what'), t('hh.b.yours'), t('hh.b.conventional'), t('hh.b.diff')];
  document.getElementById('baseline').replaceChildren(
    el('caption', { class: 'sr' }, t('hh.baselineH')),
    el('thead', {}, el('tr', {}, head.map((h) => el('th', { scope: 'col' }, h)))),
    el('tbody', {}, rows.map((r) => el('tr', { id: 'baseline-' + r[4] }, r.slice(0, 4).map((v, i) => el('td', { 'data-label': head[i] }, v))))));
  const names = (ids) => ids.flatMap((id, i) => [i ? ', ' : '', accountNode(id, body)]);
  const bridge = d.bridge || [];
  document.getElementById('bridge').replaceChildren(...(bridge.length ? bridge.map((x) => el('li', {},
    tNodes(x.fromAge === x.toAge ? 'hh.bridgeOne' : 'hh.bridgeRow', { from: x.fromAge, to: x.toAge, accounts: names(x.accounts) }))) : [el('li', {}, t('hh.noBridge'))]));
  drawStack(d, body);
  return yearColumns(d, body);
}

/** A figure of the year table: compact, its sign and its meaning spoken, a line of its own. */
const line = (cls, sign, v, label) => el('span', { class: 'l ' + cls }, el('span', { 'aria-hidden': 'true' }, sign), compact(Math.abs(v)), el('span', { class: 'sr' }, ' ' + label));
const big = (v) => Math.abs(v || 0) >= 0.5;

/**
 * The year table's columns ([header, cell, header node, class]): the year
 * with the ages, where the year is taxed when that changes, each account's
 * balance with what it was paid, paid out and converted beneath, pensions,
 * withdrawals, the tax with its kinds beneath, and what went over a limit or
 * was left unmet. Amounts in three figures, so a couple's five accounts fit
 * a desktop's column; the CSV beside it has them exact.
 */
function yearColumns(d, body) {
  const p = d.projections;
  const ids = p[0].accounts.map((a) => a.id);
  const any = (f) => p.some((r) => big(f(r)));
  const n = (v) => compact(Math.round(v || 0) || 0);
  const acc = (r, id) => r.accounts.find((a) => a.id === id);
  const kinds = ['incomeTax', 'socialContributions', 'capitalTax', 'penalties', 'wealthTax'];
  const kindKey = { incomeTax: 'incomeTax', socialContributions: 'social', capitalTax: 'capitalTax', penalties: 'penalties', wealthTax: 'wealthTax' };
  const moves = new Set(p.map((r) => r.residence)).size > 1;
  const ages = (r) => (body.partner ? `${r.age} · ${r.partnerAge ?? '—'}` : String(r.age));
  return [
    [t(body.partner ? 'hh.col.yearAges' : 'hh.col.yearAge'), (r) => el('span', { class: 'v' }, el('span', { class: 'l' }, String(r.year)), el('span', { class: 'l sub' }, ages(r)))],
    ...(moves ? [[t('hh.col.residence'), (r) => country(r.residence)?.name || countryName(r.residence, r.residence), null, 'left']] : []),
    ...ids.map((id) => [accountName(id, body), (r) => {
      const a = acc(r, id);
      return el('span', { class: 'v' }, el('span', { class: 'l' }, n(a?.endBalance)),
        big(a?.contributions) ? line('in more', '+', a.contributions, t('hh.col.paidIn')) : null,
        big(a?.withdrawals) ? line('out more', '−', a.withdrawals, t('hh.col.drawn')) : null,
        big(a?.conversions) ? line('conv more', a.conversions > 0 ? '⇄ +' : '⇄ −', a.conversions, t('hh.col.converted')) : null);
    }, accountNode(id, body)]),
    ...(any((r) => r.income?.pensions) ? [[t('hh.col.pensions'), (r) => n(r.income?.pensions)]] : []),
    ...(any((r) => r.income?.meansTested) ? [[t('hh.col.meansTested'), (r) => n(r.income?.meansTested)]] : []),
    ...(any((r) => r.sepp) ? [[t('hh.col.sepp'), (r) => n(r.sepp)]] : []),
    [t('hh.col.drawnAll'), (r) => n(r.withdrawals)],
    [t('hh.col.tax'), (r) => el('span', { class: 'v' }, el('span', { class: 'l' }, n(r.tax?.total)),
      ...kinds.filter((k) => any((x) => x.tax?.[k]) && big(r.tax?.[k])).map((k) => el('span', { class: 'l kind more' }, n(r.tax[k]), ' ', el('abbr', { title: t('hh.col.' + kindKey[k]) }, t('hh.kindShort.' + kindKey[k])))))],
    ...(any((r) => r.overLimit) ? [[t('hh.col.overLimit'), (r) => n(r.overLimit)]] : []),
    ...(any((r) => r.shortfall) ? [[t('hh.col.shortfall'), (r) => n(r.shortfall)]] : []),
  ];
}

/** What the year table's figures are: the currency, rounded, the key to the lines beneath them; where every year is taxed when that never changes. */
export function yearTableKey(d, cur) {
  const p = d.projections;
  const res = new Set(p.map((r) => r.residence));
  const where = res.size === 1 && p[0].residence ? ' ' + t('hh.taxedAll', { country: country(p[0].residence)?.name || countryName(p[0].residence, p[0].residence) }) : '';
  return t('hh.tableKey', { cur }) + where;
}

export function overLimit(d) {
  const r = (d.projections || []).find((x) => x.overLimit >= 0.5);
  return r ? { year: r.year, age: r.age, amount: r.overLimit } : null;
}

/**
 * The CSV lines of a household answer: ages, residence, each account's end
 * balance (its id the column), withdrawals and tax; null for a one-pot plan.
 */
export function householdCSV(d) {
  if (!isHousehold(d)) return null;
  const ids = d.projections[0].accounts.map((a) => a.id);
  const head = ['year', 'age', 'partnerAge', 'residence', ...ids, 'withdrawals', 'tax', 'endBalance', 'realEndBalance'];
  return [head.join(',')].concat(d.projections.map((r) => [r.year, r.age, r.partnerAge ?? '', r.residence,
    ...ids.map((id) => r.accounts.find((a) => a.id === id)?.endBalance ?? ''), r.withdrawals, r.tax?.total ?? '', r.endBalance, r.realEndBalance].join(',')));
}

let stackShown = null; // the answer and body the stacked chart shows, to redraw in the other money

// The stacked chart follows the balance chart's choice of money.
for (const r of document.querySelectorAll('input[name=chart-money]')) r.addEventListener('change', () => { if (stackShown) drawStack(...stackShown); });

/**
 * Each row's divisor from money of its year to today's money: its end
 * balance over its real end balance (the year before's when the accounts
 * are empty), or 1 in money of each year.
 */
function priceLevels(p, nominal) {
  let lvl = 1;
  return p.map((r) => {
    if (!nominal && r.endBalance > 0 && r.realEndBalance > 0) lvl = r.endBalance / r.realEndBalance;
    return nominal ? 1 : lvl;
  });
}

/** The balances of each account stacked by age, with each year's figures on hover or focus. */
function drawStack(d, body) {
  stackShown = [d, body];
  const p = d.projections;
  const nominal = /** @type {HTMLInputElement|null} */ (document.getElementById('chart-nominal'))?.checked === true;
  const lvl = priceLevels(p, nominal);
  const xs = p.map((r) => r.age);
  const ids = p[0].accounts.map((a) => a.id);
  const below = p.map(() => 0);
  const bands = ids.map((id, k) => {
    const lo = [...below];
    p.forEach((r, i) => { below[i] += Math.max(0, r.accounts.find((a) => a.id === id)?.endBalance || 0) / lvl[i]; });
    return { name: 'acct-' + id, label: accountName(id, body), node: accountNode(id, body), cls: 'stack s' + (k % 6), xs, lo, hi: [...below] };
  });
  const chart = document.getElementById('stack-chart');
  const fig = lineChart({
    title: t('hh.chartTitle', { unit: t(nominal ? 'calc.eachYear' : 'calc.todaysMoney') }), desc: t('hh.chartDesc', { n: ids.length, from: xs[0], to: xs[xs.length - 1] }),
    xLabel: t('calc.col.age'), bands, width: chart.clientWidth - 18,
  });
  const svg = /** @type {SVGSVGElement} */ (fig.querySelector('svg'));
  const tip = el('p', { class: 'chart-tip', 'aria-live': 'polite' }, t('hh.chartTip'));
  let at = -1;
  const showAt = (i) => {
    at = Math.max(0, Math.min(p.length - 1, i));
    const r = p[at];
    tip.replaceChildren(`${t('calc.col.age')} ${r.age}: `, ...r.accounts.flatMap((a, i) => [i ? ' · ' : '', accountNode(a.id, body), ' ' + money(a.endBalance / lvl[at])]));
  };
  svg.setAttribute('tabindex', '0');
  svg.addEventListener('keydown', (e) => {
    if (e.key !== 'ArrowRight' && e.key !== 'ArrowLeft') return;
    e.preventDefault();
    showAt(at + (e.key === 'ArrowRight' ? 1 : -1));
  });
  svg.addEventListener('focus', () => { if (at < 0) showAt(0); });
  svg.addEventListener('mousemove', (e) => {
    const box = svg.getBoundingClientRect();
    const vb = svg.viewBox.baseVal;
    const x = ((e.clientX - box.left) / box.width) * vb.width;
    showAt(Math.round(((x - 56) / (vb.width - 72)) * (p.length - 1)));
  });
  fig.append(tip);
  chart.replaceChildren(fig);
}

/** The API's notes, in English, under a heading that says so. */
export function showNotes(d) {
  const notes = d.notes || [];
  const box = document.getElementById('api-notes');
  box.hidden = !notes.length;
  document.getElementById('notes').replaceChildren(...notes.map((n) => el('li', apiText(), n)));
}
