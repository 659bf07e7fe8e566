//go:build !linux

package handlers

import "net"

// rawIO is Linux's (rawio_linux.go); elsewhere a connection reads and
// writes through net.Conn.
type rawIO struct{}

func (*rawIO) init(net.Conn) {}
