// Package buildinfo says which build of fiplan is running, as the binary
// records it (debug.ReadBuildInfo): the version, the commit and the
// toolchain. fiplan -version prints it, and every calculation answered over
// MCP names it as its engine, so a result can be traced to the code that
// computed it.
package buildinfo

import (
	"runtime/debug"
	"strings"
)

// Build is what a binary knows of its source, from debug.ReadBuildInfo.
// The commit fields are empty when the binary was built without VCS
// information (go build -buildvcs=false, as .ci/run builds, or outside a
// git checkout).
type Build struct {
	Version  string // -X main.version (the ld argument), else the module version, else "dev"
	Revision string // vcs.revision: the commit
	Time     string // vcs.time: the commit's time, RFC 3339
	Modified bool   // vcs.modified: the tree had uncommitted changes
	Go       string // the toolchain, e.g. go1.26.8
}

// Read reads b (as debug.ReadBuildInfo returns it; nil when the binary
// has none) with the -X version override ld.
func Read(ld string, b *debug.BuildInfo) Build {
	out := Build{Version: ld}
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
func (b Build) String() string {
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

// Binary is this binary's build; ld is the version set at link time
// (-X main.version), "" when none was.
func Binary(ld string) Build {
	b, ok := debug.ReadBuildInfo()
	if !ok {
		b = nil
	}
	return Read(ld, b)
}
