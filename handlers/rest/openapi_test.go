package rest

import (
	"strings"
	"testing"

	"fiplan/handlers/schema"
)

func clashA() Schema {
	type Item struct {
		A string `json:"a" schema:"maxLen=3"`
	}
	return schema.New[Item]()
}

func clashB() Schema {
	type Item struct {
		B string `json:"b" schema:"maxLen=3"`
	}
	return schema.New[Item]()
}

// Two declarations that would share a component name stop the document
// from being built, so a generated client never gets one type for two.
func TestOpenAPIRefusesAComponentNameClash(t *testing.T) {
	routes := []*Route{
		Post("/a", Public, nil, &Doc{Status: 200, Body: clashA()}),
		Post("/b", Public, nil, &Doc{Status: 200, Body: clashB()}),
	}
	_, err := OpenAPI(Info{Title: "t", Version: "1"}, routes)
	if err == nil || !strings.Contains(err.Error(), `"Item"`) {
		t.Fatalf("err %v, want a clash over the name Item", err)
	}
	doc, err := OpenAPI(Info{Title: "t", Version: "1"}, routes[:1])
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(doc), `"requestBody":{"required":true,"content":{"application/json":{"schema":{"$ref":"#/components/schemas/Item"}}}}`) ||
		!strings.Contains(string(doc), `"schemas":{"Error":`) || !strings.Contains(string(doc), `"Item":{"type":"object"`) {
		t.Fatalf("the body is not a reference to its component: %s", doc)
	}
}
