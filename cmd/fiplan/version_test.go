package main

import (
	"debug/buildinfo"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"
)

// A binary built in a git checkout carries the commit as go version -m
// shows it; this is such a binary's build information (tabs as go writes
// them).
const vcsBuild = "go\tgo1.26.8\n" +
	"path\tfiplan/cmd/fiplan\n" +
	"mod\tfiplan\tv0.0.0-20261126175932-d8d7ee5655cf+dirty\t\n" +
	"dep\tgo.etcd.io/bbolt\tv1.5.0\th1:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=\n" +
	"build\t-buildmode=exe\n" +
	"build\tvcs=git\n" +
	"build\tvcs.revision=d8d7ee5655cf1a158e1df583082a954360d705a5\n" +
	"build\tvcs.time=2026-11-26T17:59:32Z\n" +
	"build\tvcs.modified=true\n"

// .ci/run builds with -buildvcs=false: no vcs settings, module (devel).
const plainBuild = "go\tgo1.26.8\n" +
	"path\tfiplan/cmd/fiplan\n" +
	"mod\tfiplan\t(devel)\t\n" +
	"build\t-buildmode=exe\n"

func parseBuild(t *testing.T, s string) *debug.BuildInfo {
	t.Helper()
	bi, err := debug.ParseBuildInfo(s)
	if err != nil {
		t.Fatalf("cannot parse build info: %v", err)
	}
	bi.GoVersion = "go1.26.8" // kept apart in a binary, so ParseBuildInfo skips the go line
	return bi
}

func TestReadBuild(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name string
		ld   string
		info *debug.BuildInfo
		want build
		line string
	}{
		{"from git", "", parseBuild(t, vcsBuild),
			build{Version: "v0.0.0-20261126175932-d8d7ee5655cf+dirty", Revision: "d8d7ee5655cf1a158e1df583082a954360d705a5", Time: "2026-11-26T17:59:32Z", Modified: true, Go: "go1.26.8"},
			"v0.0.0-20261126175932-d8d7ee5655cf+dirty (commit d8d7ee5655cf1a158e1df583082a954360d705a5, 2026-11-26T17:59:32Z, modified; go1.26.8)"},
		{"a release's -X version wins, the commit stays", "v0.4.0", parseBuild(t, strings.Replace(vcsBuild, "vcs.modified=true", "vcs.modified=false", 1)),
			build{Version: "v0.4.0", Revision: "d8d7ee5655cf1a158e1df583082a954360d705a5", Time: "2026-11-26T17:59:32Z", Go: "go1.26.8"},
			"v0.4.0 (commit d8d7ee5655cf1a158e1df583082a954360d705a5, 2026-11-26T17:59:32Z; go1.26.8)"},
		{"-buildvcs=false", "", parseBuild(t, plainBuild),
			build{Version: "dev", Go: "go1.26.8"},
			"dev (no commit recorded: built with -buildvcs=false or outside git; go1.26.8)"},
		{"no build information", "", nil,
			build{Version: "dev"},
			"dev (no commit recorded: built with -buildvcs=false or outside git)"},
		{"no build information, -X version", "v0.4.0", nil,
			build{Version: "v0.4.0"},
			"v0.4.0 (no commit recorded: built with -buildvcs=false or outside git)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := readBuild(c.ld, c.info)
			if got != c.want {
				t.Fatalf("readBuild = %+v, want %+v", got, c.want)
			}
			if got.String() != c.line {
				t.Fatalf("String() = %q, want %q", got.String(), c.line)
			}
		})
	}
}

// TestVersionReportsTheBinarysBuild: fiplan -version prints what the binary
// itself records, read back from the file as go version -m reads it.
func TestVersionReportsTheBinarysBuild(t *testing.T) {
	t.Parallel()
	bi, err := buildinfo.ReadFile(binary)
	if err != nil {
		t.Fatal(err)
	}
	out, err := command(t, nil, "-version").Output()
	if err != nil {
		t.Fatal(err)
	}
	if want := "fiplan " + readBuild("", bi).String() + "\n"; string(out) != want {
		t.Fatalf("-version printed %q, want %q", out, want)
	}
}

// TestVersionFromLdflags: a release build names its tag with
// -ldflags "-X main.version=...".
func TestVersionFromLdflags(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		// a second link of the whole binary; TestReadBuild covers the
		// -X version's reading, and the full run builds it
		t.Skip("links a second binary: run without -short")
	}
	bin := filepath.Join(t.TempDir(), "fiplan")
	if out, err := exec.Command("go", "build", "-ldflags", "-X main.version=v0.9.1", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	out, err := exec.Command(bin, "-version").Output()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(out), "fiplan v0.9.1 (") {
		t.Fatalf("-version printed %q, want fiplan v0.9.1 (...)", out)
	}
}
