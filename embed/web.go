package embed

import "embed"

// Web is the web app: web/layout.html and web/pages/*.html (templates
// rendered once at start for each language), web/i18n/<language>.json (the
// text of every page, one file per language with the same keys) and
// web/static/ (JavaScript modules, CSS and images, served under
// content-hashed names). handlers/web serves it.
//
//go:embed web
var Web embed.FS
