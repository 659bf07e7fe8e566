package handlers

import (
	"strconv"

	"fiplan/handlers/bytesconv"
	"fiplan/handlers/errcode"
	"fiplan/handlers/rest"
	"fiplan/handlers/schema"
)

type Ctx = rest.Ctx

const (
	CodeUnauthorized         = errcode.Unauthorized
	CodeTokenExpired         = errcode.TokenExpired
	CodeForbidden            = errcode.Forbidden
	CodeSubscriptionRequired = errcode.SubscriptionRequired
	CodeNotFound             = errcode.NotFound
	CodeEndpointNotFound     = errcode.EndpointNotFound
	CodeMethodNotAllowed     = errcode.MethodNotAllowed
	CodeConflict             = errcode.Conflict
	CodePayloadTooLarge      = errcode.PayloadTooLarge
	CodeRateLimited          = errcode.RateLimited
	CodeInternal             = errcode.Internal
	CodeDatabase             = errcode.Database
	CodeUnavailable          = errcode.Unavailable
)

func b2s(b []byte) string { return bytesconv.String(b) }
func itoa(i int) string   { return strconv.Itoa(i) }

func decode[T any](c *Ctx, s *schema.Schema[T], dst *T) bool { return rest.Decode(c, s, dst) }

const v1 = "/api/v1"
