package rest

import (
	"fmt"
	"strings"
)

// The router is a trie of path segments. A static segment wins over a
// parameter ("/assets/summary" before "/assets/{id}"). Lookups compare
// bytes against the stored strings and allocate nothing.

const maxParams = 4

// Methods the API serves, as indexes into Node.routes.
const (
	mGet = iota
	mPost
	mPut
	mPatch
	mDelete
	nMethods
)

var methodNames = [nMethods]string{"GET", "POST", "PUT", "PATCH", "DELETE"}

// MethodIndex is m's index among the served methods, or -1. HEAD is
// served by the GET route (fasthttp leaves out the body).
func MethodIndex(m []byte) int {
	switch string(m) {
	case "GET", "HEAD":
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

// Node is a path of the API with the routes of its methods.
type Node struct {
	seg       string
	static    []*Node
	param     *Node
	paramName string
	routes    [nMethods]*Route
	allow     string // the Allow header: methods with a route here
}

// Route returns the route of method m, or nil.
func (n *Node) Route(m []byte) *Route {
	i := MethodIndex(m)
	if i < 0 {
		return nil
	}
	return n.routes[i]
}

// Allow lists the methods with a route at n, for the Allow header: HEAD
// beside GET, and OPTIONS, which every path answers.
func (n *Node) Allow() string { return n.allow }

// Router finds routes by path.
type Router struct {
	root Node
}

// Add adds r; a duplicate route, an unsupported method or conflicting
// parameter names are errors.
func (rt *Router) Add(r *Route) error {
	n := &rt.root
	names := 0
	for _, seg := range strings.Split(strings.Trim(r.Path, "/"), "/") {
		if strings.HasPrefix(seg, "{") && strings.HasSuffix(seg, "}") {
			name := seg[1 : len(seg)-1]
			if n.param == nil {
				n.param = &Node{paramName: name}
			} else if n.param.paramName != name {
				return fmt.Errorf("cannot add route %s %s: conflicting parameter names", r.Method, r.Path)
			}
			n = n.param
			names++
			continue
		}
		var next *Node
		for _, c := range n.static {
			if c.seg == seg {
				next = c
				break
			}
		}
		if next == nil {
			next = &Node{seg: seg}
			n.static = append(n.static, next)
		}
		n = next
	}
	if names > maxParams {
		return fmt.Errorf("cannot add route %s %s: too many parameters", r.Method, r.Path)
	}
	m := -1
	for i, name := range methodNames {
		if name == r.Method {
			m = i
		}
	}
	if m < 0 {
		return fmt.Errorf("cannot add route %s %s: unsupported method", r.Method, r.Path)
	}
	if n.routes[m] != nil {
		return fmt.Errorf("cannot add route %s %s: it is already routed", r.Method, r.Path)
	}
	n.routes[m] = r
	var allow []string
	for i, x := range n.routes {
		if x != nil {
			allow = append(allow, methodNames[i])
			if i == mGet {
				allow = append(allow, "HEAD")
			}
		}
	}
	n.allow = strings.Join(append(allow, "OPTIONS"), ", ")
	return nil
}

// Params receives path parameter values; they alias the request path and
// are valid only while the request is being served.
type Params struct {
	n      int
	names  [maxParams]string
	values [maxParams][]byte
}

// Lookup finds the node for path, or nil. One trailing slash is ignored.
func (rt *Router) Lookup(path []byte, p *Params) *Node {
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
		var next *Node
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
func (p *Params) get(name string) []byte {
	for i := 0; i < p.n; i++ {
		if p.names[i] == name {
			return p.values[i]
		}
	}
	return nil
}
