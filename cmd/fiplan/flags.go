package main

import (
	"flag"
	"fmt"
)

// parseFlags parses args into fs, then gives each flag left off the
// command line the value of its environment variable (vars maps a flag's
// name to its variable). Flags are declared with their built-in defaults,
// never with a variable's value, so that -h and a mistyped flag never
// print a secret or a database password.
func parseFlags(fs *flag.FlagSet, args []string, getenv func(string) string, vars map[string]string) error {
	if err := fs.Parse(args); err != nil {
		return err
	}
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	for name, env := range vars {
		v := getenv(env)
		if given[name] || v == "" {
			continue
		}
		if err := fs.Set(name, v); err != nil {
			return fmt.Errorf("invalid %s: %w", env, err)
		}
	}
	return nil
}

// usage is what -h prints before the settings of the serving command.
const usage = `fiplan serves the fiplan API; every setting is a flag and an FI_ variable.

Usage:
  fiplan [flags]                       serve (the settings below)
  fiplan token -sub NAME [-tier pro] [-role admin] [-ttl 1h]
                                       print a session token signed with the server's secret
  fiplan mcp [-sub local] [-tier pro]  serve the MCP tools over stdio as a local user
  fiplan migrate [-db PATH|URL]        upgrade the store's schema and exit
  fiplan backup -o FILE                copy the bbolt file, while the server runs
  fiplan restore -i FILE               put a copy back (the server stopped)
  fiplan -version                      print the version

A subcommand's -h lists its own flags. Settings (an environment variable's
value is never shown here):
`
