// The local sign-in form: keep where the person was going.
import './common.js';

const next = new URLSearchParams(location.search).get('next');
const input = /** @type {HTMLInputElement|null} */ (document.getElementById('next'));
if (input && next && next.startsWith('/') && !next.startsWith('//')) input.value = next;
document.getElementById('name')?.focus();
