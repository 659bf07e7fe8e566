package handlers

import "slices"

// accountRoutes are what a signed-in user keeps with us: assets, profile,
// settings, notifications, export and erasure, and the FI score (issue #5).
func accountRoutes(s *Server) []*route {
	return slices.Concat(portfolioRoutes(s), assetRoutes(s), userRoutes(s), []*route{fiScoreRoute(s)})
}
