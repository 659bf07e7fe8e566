package handlers

import "strings"

// The router is a trie of path segments. A static segment wins over a
// parameter ("/assets/summary" before "/assets/{id}"). Lookups compare
// bytes against the stored strings and allocate nothing.

const maxParams = 4

// Methods the API serves, as indexes into node.routes.
const (
	mGet = iota
	mPost
	mPut
	mPatch
	mDelete
	nMethods
)

var methodNames = [nMethods]string{"GET", "POST", "PUT", "PATCH", "DELETE"}

func methodIndex(m []byte) int {
	switch string(m) {
	case "GET":
		return mGet
	case "POST":
		return mPost
	case "PUT":
		return mPut
	case "PATCH":
		return mPatch
	case "DELETE":
		return mDelete
	}
	return -1
}

type node struct {
	seg       string
	static    []*node
	param     *node
	paramName string
	routes    [nMethods]*route
	allow     string // the Allow header: methods with a route here
}

type router struct {
	root node
}

func (rt *router) add(r *route) {
	n := &rt.root
	names := 0
	for _, seg := range strings.Split(strings.Trim(r.path, "/"), "/") {
		if strings.HasPrefix(seg, "{") && strings.HasSuffix(seg, "}") {
			name := seg[1 : len(seg)-1]
			if n.param == nil {
				n.param = &node{paramName: name}
			} else if n.param.paramName != name {
				panic("router: conflicting parameter names at " + r.path)
			}
			n = n.param
			names++
			continue
		}
		var next *node
		for _, c := range n.static {
			if c.seg == seg {
				next = c
				break
			}
		}
		if next == nil {
			next = &node{seg: seg}
			n.static = append(n.static, next)
		}
		n = next
	}
	if names > maxParams {
		panic("router: too many parameters in " + r.path)
	}
	m := -1
	for i, name := range methodNames {
		if name == r.method {
			m = i
		}
	}
	if m < 0 {
		panic("router: unsupported method " + r.method)
	}
	if n.routes[m] != nil {
		panic("router: duplicate route " + r.method + " " + r.path)
	}
	n.routes[m] = r
	var allow []string
	for i, x := range n.routes {
		if x != nil {
			allow = append(allow, methodNames[i])
		}
	}
	n.allow = strings.Join(allow, ", ")
}

// params receives path parameter values; they alias the request path and
// are valid only while the request is being served.
type params struct {
	n      int
	names  [maxParams]string
	values [maxParams][]byte
}

// lookup finds the node for path, or nil. One trailing slash is ignored.
func (rt *router) lookup(path []byte, p *params) *node {
	p.n = 0
	if len(path) == 0 || path[0] != '/' {
		return nil
	}
	path = path[1:]
	if len(path) > 0 && path[len(path)-1] == '/' {
		path = path[:len(path)-1]
	}
	n := &rt.root
	for len(path) > 0 {
		i := 0
		for i < len(path) && path[i] != '/' {
			i++
		}
		seg := path[:i]
		if i < len(path) {
			path = path[i+1:]
			if len(path) == 0 {
				return nil // "//" or a second trailing slash
			}
		} else {
			path = path[i:]
		}
		if len(seg) == 0 {
			return nil
		}
		var next *node
		for _, c := range n.static {
			if c.seg == string(seg) {
				next = c
				break
			}
		}
		if next == nil && n.param != nil {
			next = n.param
			if p.n == maxParams {
				return nil
			}
			p.names[p.n] = next.paramName
			p.values[p.n] = seg
			p.n++
		}
		if next == nil {
			return nil
		}
		n = next
	}
	if n.allow == "" {
		return nil // an inner node with no route of its own
	}
	return n
}

// get returns the value of the named parameter.
func (p *params) get(name string) []byte {
	for i := 0; i < p.n; i++ {
		if p.names[i] == name {
			return p.values[i]
		}
	}
	return nil
}
