package handlers

// taxRoutes are the /tax routes (issue #7).
func taxRoutes(s *Server) []*route { return nil }
