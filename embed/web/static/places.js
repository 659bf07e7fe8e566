// City search, side-by-side comparison and budget recommendations.
import { api, describe, status, fieldErrors, clearFieldErrors, el, money, numberOf, requireSession, control } from './common.js';

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
  status(st, 'loading', 'Searching…');
  try {
    const cities = await api('GET', '/geo/cities?' + q);
    status(st, '', `${cities.meta?.total ?? cities.length} cities found${cities.length < (cities.meta?.total ?? 0) ? `, first ${cities.length} shown` : ''}.`);
    document.getElementById('cities').replaceChildren(...cities.map((c) => {
      const id = 'pick-' + c.id;
      const box = el('input', { type: 'checkbox', id, value: c.id, checked: picked.has(c.id) });
      box.addEventListener('change', () => {
        if (box.checked) picked.add(c.id); else picked.delete(c.id);
        compareBtn.disabled = picked.size < 2 || picked.size > 5;
      });
      return el('li', {}, box, el('label', { for: id }, `${c.name}, ${c.countryName}`), el('span', {}, `${usd(c.monthlyCostUSD)} a month · safety ${c.safetyIndex} · ${c.climateBand}`));
    }));
  } catch (err) {
    if (err.details?.length) fieldErrors(search, err.details);
    status(st, 'error', describe(err));
  }
});

document.getElementById('compare').addEventListener('submit', async (e) => {
  e.preventDefault();
  const st = document.getElementById('compare-status');
  if (picked.size < 2 || picked.size > 5) { status(st, 'error', 'Tick 2 to 5 cities.'); return; }
  status(st, 'loading', 'Comparing…');
  try {
    const d = await api('GET', `/geo/compare?ids=${[...picked].map(encodeURIComponent).join(',')}&style=${control(/** @type {HTMLFormElement} */ (e.target), 'style').value}`);
    status(st, '', '');
    const lines = Object.keys(d.cities[0].costs);
    document.getElementById('comparison').replaceChildren(el('div', { class: 'table-wrap', tabindex: 0, role: 'region', 'aria-label': 'Comparison' }, el('table', {},
      el('thead', {}, el('tr', {}, el('th', { scope: 'col' }, 'Monthly, USD'), d.cities.map((c) => el('th', { scope: 'col' }, c.city.name)))),
      el('tbody', {},
        lines.map((l) => el('tr', {}, el('th', { scope: 'row', class: 'left' }, words(l)), d.cities.map((c) => el('td', {}, usd(c.costs[l]), c.ratioToFirst[l] !== 1 ? ` (×${c.ratioToFirst[l]})` : '')))),
        el('tr', {}, el('th', { scope: 'row', class: 'left' }, 'FI number'), d.cities.map((c) => el('td', {}, usd(c.fiNumberUSD)))),
        el('tr', {}, el('th', { scope: 'row', class: 'left' }, 'Money goes further'), d.cities.map((c) => el('td', {}, `×${c.goesFurther}`)))))));
  } catch (err) {
    status(st, 'error', describe(err));
  }
});

const recs = /** @type {HTMLFormElement} */ (document.getElementById('recs'));
recs.addEventListener('submit', async (e) => {
  e.preventDefault();
  clearFieldErrors(recs);
  const st = document.getElementById('recs-status');
  const body = { monthlyBudgetUSD: numberOf(recs.monthlyBudgetUSD), householdSize: numberOf(recs.householdSize) };
  const ms = numberOf(recs.minSafety);
  if (ms !== undefined) body.preferences = { minSafety: ms };
  status(st, 'loading', 'Ranking cities…');
  try {
    const list = await api('POST', '/geo/recommendations', body);
    status(st, '', list.length ? '' : 'No city fits: raise the budget or loosen the filters.');
    document.getElementById('rec-list').replaceChildren(...list.slice(0, 10).map((c) => el('li', {},
      el('strong', {}, `${c.name}, ${c.countryName}`), ` — score ${c.score}, ${usd(c.monthlyCostUSD)} a month${c.tight ? ' (tight)' : ''}`,
      el('ul', { class: 'reasons' }, (c.reasons || []).map((r) => el('li', {}, r))))));
  } catch (err) {
    if (err.details?.length) fieldErrors(recs, err.details);
    status(st, 'error', describe(err));
  }
});

if (await requireSession(document.getElementById('page'))) search.requestSubmit();
