package handlers

// geoRoutes are the /geo routes (issue #6).
func geoRoutes(s *Server) []*route { return nil }
