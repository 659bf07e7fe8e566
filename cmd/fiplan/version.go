package main

import (
	"runtime/debug"

	"fiplan/handlers/buildinfo"
)

// version is set at build time with -ldflags "-X main.version=v0.4.0"; it
// names a release even when the binary carries no module version.
var version = ""

// build is what a binary knows of its source (see package buildinfo).
type build = buildinfo.Build

// readBuild reads b (as debug.ReadBuildInfo returns it) with the -X version
// override ld.
func readBuild(ld string, b *debug.BuildInfo) build { return buildinfo.Read(ld, b) }

// binaryBuild is this binary's build.
func binaryBuild() build { return buildinfo.Binary(version) }

// buildVersion is the version alone, as /api/v1/status, the MCP server and
// the start-up log report it.
func buildVersion() string { return binaryBuild().Version }
