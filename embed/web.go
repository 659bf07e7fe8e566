package embed

import "embed"

// Web is the web app: web/layout.html and web/pages/*.html (html/template
// files rendered once at start) and web/static/ (JavaScript modules, CSS and
// images, served under content-hashed names). handlers/web serves it.
//
//go:embed web
var Web embed.FS
