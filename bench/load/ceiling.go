package main

import (
	"bytes"
	"fmt"
	"net"
	"strings"

	"github.com/valyala/fasthttp"
)

// canned is a response captured from fiplan, replayed byte for byte.
type canned struct {
	status  int
	headers [][2][]byte // in fiplan's order, without Date and Content-Length
	body    []byte
}

// cannedRoute answers one route: body, when not nil, must match the
// request's body exactly (the identical calculator); nil matches any body
// (the varied calculator, answered with one captured response) that starts
// with prefix (the household route: every body from its template).
type cannedRoute struct {
	method, path string
	body         []byte
	// prefix, with body nil, restricts the route to bodies that start
	// with it (a route whose every body is its own, from one template).
	prefix []byte
	res    *canned
}

// capture sends one request to fiplan and keeps its response.
func capture(c *fasthttp.Client, base, method, path, authz, body string) (*canned, error) {
	req, res := fasthttp.AcquireRequest(), fasthttp.AcquireResponse()
	defer fasthttp.ReleaseRequest(req)
	defer fasthttp.ReleaseResponse(res)
	setRequest(req, base, method, path, authz, body)
	if err := c.Do(req, res); err != nil {
		return nil, fmt.Errorf("cannot %s %s: %w", method, path, err)
	}
	if code := res.StatusCode(); code < 200 || code > 299 {
		return nil, fmt.Errorf("%s %s answered %d: %.300s", method, path, code, res.Body())
	}
	out := &canned{status: res.StatusCode(), body: bytes.Clone(res.Body())}
	for k, v := range res.Header.All() {
		switch strings.ToLower(string(k)) {
		case "date", "content-length", "connection":
			continue
		}
		out.headers = append(out.headers, [2][]byte{bytes.Clone(k), bytes.Clone(v)})
	}
	return out, nil
}

func setRequest(req *fasthttp.Request, base, method, path, authz, body string) {
	req.Header.SetMethod(method)
	req.SetRequestURI(base + path)
	if authz != "" {
		req.Header.Set("Authorization", authz)
	}
	if body != "" {
		req.Header.SetContentType("application/json")
		req.SetBodyString(body)
	}
}

// ceiling is the fastest any server on this fasthttp could answer the
// same requests: no decoding, no work, the captured bytes written back.
type ceiling struct {
	routes []cannedRoute
	srv    *fasthttp.Server
	ln     net.Listener
}

func startCeiling(routes []cannedRoute) (*ceiling, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("cannot listen for the ceiling server: %w", err)
	}
	c := &ceiling{routes: routes, ln: ln}
	c.srv = &fasthttp.Server{Handler: c.serve, Name: "ceiling", NoDefaultServerHeader: true, NoDefaultContentType: true}
	go c.srv.Serve(ln) //nolint:errcheck // ends at Shutdown
	return c, nil
}

func (c *ceiling) addr() string { return c.ln.Addr().String() }

func (c *ceiling) close() { c.srv.Shutdown() } //nolint:errcheck // the process ends next

func (c *ceiling) serve(ctx *fasthttp.RequestCtx) {
	method, uri, body := ctx.Method(), ctx.RequestURI(), ctx.PostBody()
	for i := range c.routes {
		r := &c.routes[i]
		if string(method) != r.method || string(uri) != r.path || (r.body != nil && !bytes.Equal(body, r.body)) || !bytes.HasPrefix(body, r.prefix) {
			continue
		}
		for _, h := range r.res.headers {
			ctx.Response.Header.SetBytesKV(h[0], h[1])
		}
		ctx.SetStatusCode(r.res.status)
		ctx.Response.SetBodyRaw(r.res.body)
		return
	}
	ctx.Error("no captured response", fasthttp.StatusNotFound)
}
