package mcp

import (
	"bytes"
	"context"
	"errors"
	"net"
	"net/netip"
	"net/url"
	"strconv"
	"strings"

	json "github.com/goccy/go-json"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/valyala/fasthttp"

	"fiplan/compute/plan"
	"fiplan/handlers/errcode"
	"fiplan/handlers/rest"
)

// errNoResult is a calculator answer that came without its typed Result.
var errNoResult = errors.New("the calculator answered without its figures")

// PeerHeader carries the address of the client that sent an MCP request
// from the HTTP mount to the tool calls it makes; the mount overwrites
// whatever a client sends under this name.
const PeerHeader = "Fiplan-Mcp-Peer"

// envelope is the API's answer, success or error.
type envelope struct {
	Success    bool            `json:"success"`
	Data       json.RawMessage `json:"data"`
	Meta       json.RawMessage `json:"meta"`
	Error      string          `json:"error"`
	Code       string          `json:"code"`
	Message    string          `json:"message"`
	Details    []detail        `json:"details"`
	RetryAfter int             `json:"retryAfter"`
}

type detail struct {
	Path    string `json:"path"`
	Message string `json:"message"`
}

// request is what a tool call becomes: one API request.
type request struct {
	method, uri   string
	body          []byte
	authorization string
	forwardedFor  string
	traceparent   string // the /mcp request's, so that its tool calls join its trace
	peer          net.Addr
	// prepaid: the /mcp request carrying the call paid its unit.
	prepaid bool
	// typed asks the calculator for its typed Result and the answer's
	// form (fi_calculate).
	typed *plan.Typed

	// What the tool does with the answer: full answers it whole; pick
	// keeps the one item it names; id is the path parameter's value and
	// input the canonical arguments of a calculation (provenance.go).
	full  bool
	pick  string
	id    string
	input []byte
}

// handle serves one tool call by running its route through the server's
// whole chain, so validation, authentication, tier rules and rate limits
// apply as they do to the API.
func (h *Handler) handle(t *tool) sdk.ToolHandler {
	return func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		var raw json.RawMessage
		if req.Params != nil {
			raw = req.Params.Arguments
		}
		r, bad := h.request(t, raw)
		if bad != nil {
			return failure(bad, nil), nil
		}
		if t.projections {
			r.typed = &plan.Typed{Milestones: !r.full}
		}
		var header map[string][]string
		if req.Extra != nil {
			header = req.Extra.Header
		}
		if err := h.credentials(&r, header); err != nil {
			return failure(&envelope{Code: errcode.Unauthorized, Error: err.Error()}, nil), nil
		}
		status, body := h.run(&r)
		return h.result(t, &r, status, body), nil
	}
}

// request maps a tool's arguments to the route's request. bad is the
// error to answer when the arguments cannot be mapped at all.
func (h *Handler) request(t *tool, raw json.RawMessage) (r request, bad *envelope) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		raw = json.RawMessage("{}")
	}
	r.method, r.uri = t.method, t.path
	param := t.pathParam()
	if t.route.Body != nil && param == "" && !t.projections && t.compact == nil && !t.calc && t.page == 0 {
		r.body = raw // as sent: the route judges it, byte for byte
		return r, nil
	}
	args := map[string]json.RawMessage{}
	if err := json.Unmarshal(raw, &args); err != nil {
		return r, &envelope{Code: errcode.InvalidJSON, Error: "the arguments must be one JSON object"}
	}
	if param != "" {
		id, bad := grammatical(args, param, t.route.PathParam(param), true)
		if bad != nil {
			return r, bad
		}
		delete(args, param)
		r.uri = strings.Replace(r.uri, "{"+param+"}", id, 1)
		r.id = id
	}
	if bad := r.toolArgs(t, args); bad != nil {
		return r, bad
	}
	if t.calc {
		r.input = canonicalArgs(args)
	}
	if t.route.Body != nil {
		if _, ok := args["limit"]; !ok && t.page > 0 {
			args["limit"] = json.RawMessage(strconv.Itoa(t.page))
		}
		var err error
		if r.body, err = json.Marshal(args); err != nil {
			return r, &envelope{Code: errcode.InvalidJSON, Error: "the arguments must be one JSON object: " + err.Error()}
		}
		return r, nil
	}
	if _, ok := args["limit"]; !ok && t.page > 0 {
		args["limit"] = json.RawMessage(strconv.Itoa(t.page))
	}
	q, bad := query(args)
	if bad != nil {
		return r, bad
	}
	if q != "" {
		r.uri += "?" + q
	}
	return r, nil
}

// grammatical reads the string argument name and checks it against its
// grammar: an id becomes part of a path, or picks an item, only once it
// matched, so "..", a slash or an escape reaches nothing else.
func grammatical(args map[string]json.RawMessage, name string, g *rest.PathParam, required bool) (string, *envelope) {
	v, ok := args[name]
	if !ok {
		if !required {
			return "", nil
		}
		return "", &envelope{Code: errcode.Missing, Error: "missing required field: " + name,
			Details: []detail{{Path: name, Message: "is required"}}}
	}
	var id string
	if json.Unmarshal(v, &id) != nil || id == "" {
		return "", &envelope{Code: errcode.Validation, Error: "invalid arguments",
			Details: []detail{{Path: name, Message: "must be a non-empty string"}}}
	}
	if g == nil || !g.ValidString(id) {
		msg := "is not a valid id"
		if g != nil {
			msg = g.Rule
		}
		return "", &envelope{Code: errcode.Validation, Error: "invalid arguments",
			Details: []detail{{Path: name, Message: msg}}}
	}
	return id, nil
}

// toolArgs takes the tool-only arguments out of args: output or detail
// (every row or field), and the filter.
func (r *request) toolArgs(t *tool, args map[string]json.RawMessage) *envelope {
	name, short := argDetail, "compact"
	switch {
	case t.projections:
		name, short = argOutput, "summary"
	case t.compact == nil:
		name = ""
	}
	if v, ok := args[name]; ok && name != "" {
		var s string
		if json.Unmarshal(v, &s) != nil || s != "full" && s != short {
			return &envelope{Code: errcode.Validation, Error: "invalid arguments",
				Details: []detail{{Path: name, Message: "must be one of: " + short + ", full"}}}
		}
		r.full = s == "full"
		delete(args, name)
	}
	if f := t.filter; f != nil {
		v, bad := grammatical(args, f.name, f.grammar, false)
		if bad != nil {
			return bad
		}
		r.pick = v
		delete(args, f.name)
	}
	return nil
}

// query writes arguments as the route's query string: strings as they are,
// numbers and booleans as their JSON text, arrays of those comma separated.
func query(args map[string]json.RawMessage) (string, *envelope) {
	v := url.Values{}
	for name, raw := range args {
		s, ok := scalar(raw)
		if !ok {
			var list []json.RawMessage
			if json.Unmarshal(raw, &list) == nil && list != nil {
				parts := make([]string, 0, len(list))
				ok = true
				for _, e := range list {
					p, good := scalar(e)
					ok = ok && good
					parts = append(parts, p)
				}
				s = strings.Join(parts, ",")
			}
		}
		if !ok {
			return "", &envelope{Code: errcode.Validation, Error: "invalid arguments",
				Details: []detail{{Path: name, Message: "must be a string, a number, a boolean or a list of those"}}}
		}
		v.Set(name, s)
	}
	return v.Encode(), nil
}

func scalar(raw json.RawMessage) (string, bool) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return "", false
	}
	switch raw[0] {
	case '"':
		var s string
		return s, json.Unmarshal(raw, &s) == nil
	case 't', 'f':
		return string(raw), string(raw) == "true" || string(raw) == "false"
	case '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		_, err := strconv.ParseFloat(string(raw), 64)
		return string(raw), err == nil
	}
	return "", false
}

// credentials sets who the call acts for: the HTTP request's Authorization
// and client address, or, over stdio, the configured credential.
func (h *Handler) credentials(r *request, header map[string][]string) error {
	if a := first(header, "Authorization"); a != "" {
		r.authorization = a
		r.prepaid = true
		r.forwardedFor = first(header, "X-Forwarded-For")
		r.traceparent = first(header, "Traceparent")
		if ap, err := netip.ParseAddrPort(first(header, PeerHeader)); err == nil {
			r.peer = net.TCPAddrFromAddrPort(ap)
		}
		return nil
	}
	if h.cfg.Credential == nil {
		return errNoCredential
	}
	a, err := h.cfg.Credential()
	if err != nil {
		return err
	}
	r.authorization = a
	r.peer = &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1)}
	return nil
}

func first(h map[string][]string, k string) string {
	if v := h[k]; len(v) > 0 {
		return v[0]
	}
	return ""
}

// run serves r through the server's chain in-process and returns the
// status and body.
func (h *Handler) run(r *request) (int, []byte) {
	var rc fasthttp.RequestCtx
	var req fasthttp.Request
	req.Header.SetMethod(r.method)
	req.SetRequestURI(r.uri)
	req.Header.SetHost("mcp.local")
	if r.body != nil {
		req.Header.SetContentType("application/json")
		req.SetBody(r.body)
	}
	req.Header.Set(fasthttp.HeaderAuthorization, r.authorization)
	if r.forwardedFor != "" {
		req.Header.Set(fasthttp.HeaderXForwardedFor, r.forwardedFor)
	}
	if r.traceparent != "" {
		req.Header.Set("traceparent", r.traceparent)
	}
	rc.Init(&req, r.peer, nil)
	if r.prepaid {
		rc.SetUserValue(prepaid{}, true)
	}
	if r.typed != nil {
		rc.SetUserValue((*plan.Typed)(nil), r.typed)
	}
	h.cfg.Serve(&rc)
	return rc.Response.StatusCode(), rc.Response.Body()
}

// result turns the API's answer into the tool's: data as structured
// content with a summary to quote, or an error result carrying the API's
// code, message and details.
func (h *Handler) result(t *tool, r *request, status int, body []byte) *sdk.CallToolResult {
	if status == fasthttp.StatusNoContent {
		id := r.uri[strings.LastIndexByte(r.uri, '/')+1:] // matched its grammar: nothing escaped
		out, err := json.Marshal(map[string]any{"id": id, "deleted": true})
		return h.answer(t, r, out, err)
	}
	var env envelope
	if err := json.Unmarshal(body, &env); err != nil {
		return failure(&envelope{Code: errcode.Internal, Error: "the API answered " + strconv.Itoa(status) + " without a JSON envelope"}, nil)
	}
	if !env.Success {
		if env.Code == "" {
			env.Code = errcode.Internal
		}
		return failure(&env, body)
	}
	if !t.route.List {
		return h.answer(t, r, env.Data, nil)
	}
	meta := env.Meta
	if len(meta) == 0 {
		meta = json.RawMessage("{}")
	}
	out, err := json.Marshal(map[string]json.RawMessage{"items": env.Data, "meta": meta})
	return h.answer(t, r, out, err)
}

// answer is the tool's success with out, made compact and given its
// provenance (finish), as its structured content and the summary of the
// whole answer, or an internal error when out could not be made or read.
// The calculator's summary reads its typed Result.
func (h *Handler) answer(t *tool, r *request, out []byte, err error) *sdk.CallToolResult {
	var text string
	switch {
	case err != nil:
	case r.typed != nil:
		if len(r.typed.Result.Plans) == 0 {
			err = errNoResult
			break
		}
		text = planSummary(&r.typed.Result)
	default:
		out, err = h.withWrappers(t, out)
		if err == nil && r.pick != "" {
			out, err = t.filter.pick(out, r.pick)
		}
		if err == nil {
			text, err = t.summary(out)
		}
	}
	if err == nil {
		out, err = h.finish(t, r, out)
	}
	if err != nil {
		return failure(&envelope{Code: errcode.Internal, Error: "cannot read the answer of " + t.method + " " + t.path + ": " + err.Error()}, nil)
	}
	return &sdk.CallToolResult{
		StructuredContent: json.RawMessage(out),
		Content: []sdk.Content{
			&sdk.TextContent{Text: text},
			&sdk.TextContent{Text: string(out)},
		},
	}
}

// finish makes an answer compact unless the call asked for it whole, and
// adds a calculation's provenance.
func (h *Handler) finish(t *tool, r *request, out []byte) ([]byte, error) {
	var err error
	if t.compact != nil && !r.full {
		if out, err = t.compact.apply(out, t.route.List, r.pick != ""); err != nil {
			return nil, err
		}
	}
	if t.calc {
		return h.withProvenance(t, r, out)
	}
	return out, nil
}

// failure is a tool error (never a protocol error): a sentence with the
// code, message and details, then the API's error envelope as JSON.
func failure(env *envelope, body []byte) *sdk.CallToolResult {
	var b strings.Builder
	b.WriteString(env.Code)
	b.WriteString(": ")
	b.WriteString(env.Error)
	if env.Message != "" {
		b.WriteString(" (" + env.Message + ")")
	}
	for _, d := range env.Details {
		b.WriteString("\n- " + d.Path + ": " + d.Message)
	}
	if env.RetryAfter > 0 {
		b.WriteString("\nRetry after " + strconv.Itoa(env.RetryAfter) + " s.")
	}
	if body == nil {
		env.Success = false
		// Strings and booleans, in the order a map wrote them: nothing here
		// fails to encode.
		body, _ = json.Marshal(struct {
			Code    string   `json:"code"`
			Details []detail `json:"details"`
			Error   string   `json:"error"`
			Success bool     `json:"success"`
		}{env.Code, env.Details, env.Error, false})
	}
	return &sdk.CallToolResult{
		IsError: true,
		Content: []sdk.Content{&sdk.TextContent{Text: b.String()}, &sdk.TextContent{Text: string(body)}},
	}
}
