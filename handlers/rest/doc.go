// Package rest is the HTTP plumbing every domain's handlers share and no
// domain owns: the pooled request (Ctx) with the success and error
// envelopes, Route and the trie router, path-parameter grammars, paging
// and query checks, JSON merge patches, entity tags and If-Match, response
// compression and prebuilt static bodies, the Gate that bounds expensive
// requests, and the OpenAPI document built from the route table.
//
// A domain package declares its routes' handlers and schemas with it;
// package handlers lists every route in one table and runs the chain.
package rest
