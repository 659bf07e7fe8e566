// Loaded as a classic script in <head>, before the body is drawn: the
// colour scheme chosen with the page's toggle (kept in localStorage) is set
// on <html> before the first paint, so a dark page never flashes light.
// Without a choice, the stylesheet follows prefers-color-scheme.
try {
  const t = localStorage.getItem('fiplan-theme');
  if (t === 'dark' || t === 'light') document.documentElement.dataset.theme = t;
} catch { /* storage refused: follow the system */ }
