package main

import (
	"runtime/debug"
	"strings"
)

// version is set at build time with -ldflags "-X main.version=v0.4.0"; it
// names a release even when the binary carries no module version.
var version = ""

// build is what a binary knows of its source, from debug.ReadBuildInfo.
// The commit fields are empty when the binary was built without VCS
// information (go build -buildvcs=false, as .ci/run builds, or outside a
// git checkout).
type build struct {
	Version  string // -X main.version, else the module version, else "dev"
	Revision string // vcs.revision: the commit
	Time     string // vcs.time: the commit's time, RFC 3339
	Modified bool   // vcs.modified: the tree had uncommitted changes
	Go       string // the toolchain, e.g. go1.26.8
}

// readBuild reads b (as debug.ReadBuildInfo returns it; nil when the binary
// has none) with the -X version override ld.
func readBuild(ld string, b *debug.BuildInfo) build {
	out := build{Version: ld}
	if b == nil {
		if out.Version == "" {
			out.Version = "dev"
		}
		return out
	}
	out.Go = b.GoVersion
	if out.Version == "" && b.Main.Version != "" && b.Main.Version != "(devel)" {
		out.Version = b.Main.Version
	}
	if out.Version == "" {
		out.Version = "dev"
	}
	for _, s := range b.Settings {
		switch s.Key {
		case "vcs.revision":
			out.Revision = s.Value
		case "vcs.time":
			out.Time = s.Value
		case "vcs.modified":
			out.Modified = s.Value == "true"
		}
	}
	return out
}

// String is the line fiplan -version prints after "fiplan ":
//
//	v0.4.0 (commit 0123456789abcdef0123456789abcdef01234567, 2026-11-26T17:00:00Z, modified; go1.26.8)
//	dev (no commit recorded: built with -buildvcs=false or outside git; go1.26.8)
func (b build) String() string {
	var s strings.Builder
	s.WriteString(b.Version)
	s.WriteString(" (")
	if b.Revision == "" {
		s.WriteString("no commit recorded: built with -buildvcs=false or outside git")
	} else {
		s.WriteString("commit ")
		s.WriteString(b.Revision)
		if b.Time != "" {
			s.WriteString(", ")
			s.WriteString(b.Time)
		}
		if b.Modified {
			s.WriteString(", modified")
		}
	}
	if b.Go != "" {
		s.WriteString("; ")
		s.WriteString(b.Go)
	}
	s.WriteString(")")
	return s.String()
}

// binaryBuild is this binary's build.
func binaryBuild() build {
	b, ok := debug.ReadBuildInfo()
	if !ok {
		b = nil
	}
	return readBuild(version, b)
}

// buildVersion is the version alone, as /api/v1/status, the MCP server and
// the start-up log report it.
func buildVersion() string { return binaryBuild().Version }
