// City search, side-by-side comparison and budget recommendations.
import { api, describe, status, fieldErrors, clearFieldErrors, el, money, num, numberOf, requireSession, control, t, tn, loadFormat, apiText, countryName } from './common.js';

/** Places' amounts are in US dollars, whatever the user's currency. */
const usd = (v) => money(v, 'USD');

const search = /** @type {HTMLFormElement} */ (document.getElementById('search'));
const words = (k) => k.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
const picked = new Set();
const compareBtn = /** @type {HTMLButtonElement} */ (document.getElementById('compare-btn'));

search.addEventListener('submit', async (e) => {
  e.preventDefault();
  clearFieldErrors(search);
  const st = document.getElementById('search-status');
  const q = new URLSearchParams({ limit: '30', sort: search.sort.value });
  for (const k of ['q', 'country', 'maxMonthlyCost', 'minSafety', 'climate']) {
    const v = search[k].value.trim();
    if (v) q.set(k, k === 'country' ? v.toUpperCase() : v);
  }
  status(st, 'loading', t('places.searching'));
  try {
    const cities = await api('GET', '/geo/cities?' + q);
    const total = cities.meta?.total ?? cities.length;
    status(st, '', tn('places.nFound', total) + (cities.length < total ? t('places.firstShown', { n: cities.length }) : '') + '.');
    document.getElementById('cities').replaceChildren(...cities.map((c) => {
      const id = 'pick-' + c.id;
      const box = el('input', { type: 'checkbox', id, value: c.id, checked: picked.has(c.id) });
      box.addEventListener('change', () => {
        if (box.checked) picked.add(c.id); else picked.delete(c.id);
        compareBtn.disabled = picked.size < 2 || picked.size > 5;
      });
      return el('li', {}, box, el('label', { for: id }, `${c.name}, ${countryName(c.country, c.countryName)}`), el('span', {}, t('places.line', { cost: usd(c.monthlyCostUSD), safety: c.safetyIndex, climate: t('climate.' + c.climateBand) })), planLink(c));
    }));
  } catch (err) {
    if (err.details?.length) fieldErrors(search, err.details);
    status(st, 'error', describe(err));
  }
});

document.getElementById('compare').addEventListener('submit', async (e) => {
  e.preventDefault();
  const st = document.getElementById('compare-status');
  if (picked.size < 2 || picked.size > 5) { status(st, 'error', t('places.tick25')); return; }
  status(st, 'loading', t('places.comparing'));
  try {
    const d = await api('GET', `/geo/compare?ids=${[...picked].map(encodeURIComponent).join(',')}&style=${control(/** @type {HTMLFormElement} */ (e.target), 'style').value}`);
    status(st, '', '');
    const lines = Object.keys(d.cities[0].costs);
    document.getElementById('comparison').replaceChildren(el('div', { class: 'table-wrap', tabindex: 0, role: 'region', 'aria-label': t('places.comparison') }, el('table', {},
      el('thead', {}, el('tr', {}, el('th', { scope: 'col' }, t('places.monthlyUSD')), d.cities.map((c) => el('th', { scope: 'col' }, c.city.name)))),
      el('tbody', {},
        lines.map((l) => el('tr', {}, el('th', { scope: 'row', class: 'left' }, t('cost.' + l) === 'cost.' + l ? words(l) : t('cost.' + l)), d.cities.map((c) => el('td', {}, usd(c.costs[l]), c.ratioToFirst[l] !== 1 ? ` (×${num(c.ratioToFirst[l], 2)})` : '')))),
        el('tr', {}, el('th', { scope: 'row', class: 'left' }, t('calc.fiNumber')), d.cities.map((c) => el('td', {}, usd(c.fiNumberUSD)))),
        el('tr', {}, el('th', { scope: 'row', class: 'left' }, t('places.further')), d.cities.map((c) => el('td', {}, `×${num(c.goesFurther, 2)}`)))))));
  } catch (err) {
    status(st, 'error', describe(err));
  }
});

/** A link that opens the planner with retirement in city c. */
function planLink(c) {
  return el('a', { class: 'plan-link', href: '/?cityId=' + encodeURIComponent(c.id) }, t('places.planIn', { city: c.name }));
}

const recs = /** @type {HTMLFormElement} */ (document.getElementById('recs'));
recs.addEventListener('submit', async (e) => {
  e.preventDefault();
  clearFieldErrors(recs);
  const st = document.getElementById('recs-status');
  const body = { monthlyBudgetUSD: numberOf(recs.monthlyBudgetUSD), householdSize: numberOf(recs.householdSize) };
  const ms = numberOf(recs.minSafety);
  if (ms !== undefined) body.preferences = { minSafety: ms };
  status(st, 'loading', t('places.ranking'));
  try {
    const list = await api('POST', '/geo/recommendations', body);
    status(st, '', list.length ? '' : t('places.noneFits'));
    document.getElementById('rec-list').replaceChildren(...list.slice(0, 10).map((c) => el('li', {},
      el('strong', {}, `${c.name}, ${countryName(c.country, c.countryName)}`), ' — ' + t('places.recLine', { score: c.score, cost: usd(c.monthlyCostUSD) }) + (c.tight ? t('places.tight') : ''), ' ', planLink(c),
      el('ul', { class: 'reasons' }, (c.reasons || []).map((r) => el('li', apiText(), r))))));
  } catch (err) {
    if (err.details?.length) fieldErrors(recs, err.details);
    status(st, 'error', describe(err));
  }
});

if (await requireSession(document.getElementById('page'))) {
  await loadFormat();
  search.requestSubmit();
}
