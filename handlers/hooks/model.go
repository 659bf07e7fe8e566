package hooks

import (
	"time"

	"fiplan/handlers/schema"
)

// The request and response bodies of the webhook routes, each declared
// once: the schema tags drive decoding and the OpenAPI document.

// hookIn registers an endpoint.
type hookIn struct {
	URL    string   `json:"url" schema:"required,minLen=8,maxLen=2000" doc:"Where to POST the events: https (http only to a loopback host in local mode). Its address is checked at every connection: private, loopback, link-local and reserved addresses are refused."`
	Events []string `json:"events" schema:"required,minItems=1,maxItems=5,enum=checkin.due|guardrail.crossed|plan.offtrack|fi.reached|data.updated" doc:"The event types to send."`
}

// hookDoc is an endpoint as listed: never its secret.
type hookDoc struct {
	ID        string    `json:"id" schema:"required" doc:"wh_ and 26 characters of a-z and 2-7."`
	URL       string    `json:"url" schema:"required"`
	Events    []string  `json:"events" schema:"required"`
	CreatedAt time.Time `json:"createdAt" schema:"required"`
}

// hookSecret is an endpoint with its secret, answered once: at creation
// and at rotation.
type hookSecret struct {
	hookDoc
	Secret string `json:"secret" schema:"required" doc:"The signing secret, whsec_ and base64: shown only now. Verify a request with any Standard Webhooks library: HMAC-SHA256 under the base64-decoded key of webhook-id.webhook-timestamp.body, sent as webhook-signature: v1,<base64>."`
}

// eventDoc is an event: a webhook's body and an item of GET /user/events.
type eventDoc struct {
	ID        string           `json:"id" schema:"required" doc:"Stable: every delivery's webhook-id."`
	Type      string           `json:"type" schema:"required,enum=checkin.due|guardrail.crossed|plan.offtrack|fi.reached|data.updated|test"`
	CreatedAt time.Time        `json:"createdAt" schema:"required"`
	PlanID    string           `json:"planId,omitempty" doc:"The saved plan the event concerns, when it concerns one."`
	Data      schema.RawObject `json:"data" schema:"required" doc:"The event's figures."`
}

// deliveryDoc is one event's delivery to one endpoint.
type deliveryDoc struct {
	ID         string    `json:"id" schema:"required"`
	EventID    string    `json:"eventId" schema:"required"`
	EventType  string    `json:"eventType" schema:"required"`
	WebhookID  string    `json:"webhookId" schema:"required"`
	Status     string    `json:"status" schema:"required,enum=pending|delivered|failed" doc:"pending: waiting for its next attempt; delivered: the endpoint answered 2xx; failed: every retry failed (about a day) or the endpoint was removed."`
	Attempts   int       `json:"attempts" schema:"required"`
	NextAt     time.Time `json:"nextAt" schema:"required" doc:"When a pending delivery is next tried."`
	LastStatus int       `json:"lastStatus" schema:"required" doc:"The HTTP status of the last answer; 0 when none came."`
	LastError  string    `json:"lastError" schema:"required" doc:"Why the last attempt failed; empty when it did not."`
	CreatedAt  time.Time `json:"createdAt" schema:"required"`
	UpdatedAt  time.Time `json:"updatedAt" schema:"required"`
}
