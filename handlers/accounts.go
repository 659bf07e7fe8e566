package handlers

// accountRoutes are the assets, user and FI-score routes (issue #5).
func accountRoutes(s *Server) []*route { return nil }
