package handlers

import (
	"slices"

	"fiplan/handlers/rest"
)

// accountRoutes are what a signed-in user keeps with us: assets, profile,
// settings, notifications, export and erasure, and the FI score (issue #5).
func accountRoutes(s *Server) []*rest.Route {
	return slices.Concat(portfolioRoutes(s), assetRoutes(s), userRoutes(s), []*rest.Route{fiScoreRoute(s)})
}
