// ESLint for the web app's modules (embed/web/static) and this browser test.
// Run from the repository root so both lie under ESLint's base path:
//   handlers/web/e2e/node_modules/.bin/eslint -c handlers/web/e2e/eslint.config.js
import js from '@eslint/js';
import globals from 'globals';

export default [
  {
    files: ['embed/web/static/*.js'],
    ...js.configs.recommended,
    languageOptions: { ecmaVersion: 2022, sourceType: 'module', globals: globals.browser },
  },
  {
    files: ['handlers/web/e2e/*.mjs', 'handlers/web/e2e/*.js'],
    ...js.configs.recommended,
    // document: the functions given to page.evaluate run in the browser.
    languageOptions: { ecmaVersion: 2022, sourceType: 'module', globals: { ...globals.node, document: 'readonly' } },
  },
];
