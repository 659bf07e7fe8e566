// Package bench holds end-to-end benchmarks: a real fiplan server on a
// loopback port, driven by a fasthttp client, so that the figures include
// HTTP parsing and the network stack. Chain-level benchmarks live beside
// the code in handlers/server_timing_test.go. The load harness, wrk against
// the built binary beside a static-bytes ceiling and a net/http reference, is
// the command bench/load.
package bench
