package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/rs/zerolog"
	"golang.org/x/term"
)

// errUsage marks errors caused by the command line itself.
var errUsage = errors.New("invalid arguments")

// maxSources bounds --sources: each source is a full traversal, and more
// than this many only make the medians take longer (the source pickers'
// work also grows with it).
const maxSources = 1 << 16

// maxWorkers bounds --workers: each worker is a goroutine with per-run
// buffers, so a million of them took 34 s and 2.8 GB for a BFS of 3K
// vertices, and no machine this runs on has more cores.
const maxWorkers = 4096

// checkSources checks --sources K before anything is loaded.
func checkSources(k int) error { return checkCount("sources", k, 1, maxSources, "") }

// checkWorkers checks --workers before anything is loaded: the CPU
// backend reads a negative count as GOMAXPROCS, which the user did not ask
// for.
func checkWorkers(n int) error { return checkCount("workers", n, 0, maxWorkers, " (0 = GOMAXPROCS)") }

// registerWorkers adds --workers, checked by checkWorkers.
func registerWorkers(fs *flag.FlagSet, p *int) {
	fs.IntVar(p, "workers", 0, fmt.Sprintf("CPU worker count (0 = GOMAXPROCS; at most %d)", maxWorkers))
}

// checkCount refuses a count flag's value v outside lo..hi, naming the
// bound it crossed.
func checkCount(flag string, v, lo, hi int, loNote string) error {
	switch {
	case v < lo:
		return fmt.Errorf("%w: --%s %d must be at least %d%s", errUsage, flag, v, lo, loNote)
	case v > hi:
		return fmt.Errorf("%w: --%s %d exceeds the limit of %d %s", errUsage, flag, v, hi, flag)
	}
	return nil
}

// env is what every subcommand gets: the output streams and the logger.
type env struct {
	stdout, stderr io.Writer
	log            zerolog.Logger
	// interactive reports whether stderr is a terminal (progress bars).
	interactive bool
}

type command struct {
	name, args, summary string
	run                 func(ctx context.Context, e *env, args []string) error
}

func commands() []command {
	return []command{
		{"info", "(--graph FILE | --gen SPEC)", "print a graph's statistics", cmdInfo},
		{"convert", "IN OUT", "convert a graph between formats", cmdConvert},
		{"gen", "SPEC OUT", "generate a synthetic graph and write it", cmdGen},
		{"run", "ALGORITHM [flags]", "run a traversal (" + algorithmNames() + ")", cmdRun},
		{"bench", "[flags]", "compare every static variant and the adaptive policy", cmdBench},
		{"tune", "[flags]", "sweep thresholds and write the best as a thresholds section", cmdTune},
		{"version", "", "print the module version, VCS revision, Go release and whether CUDA is built in", cmdVersion},
	}
}

func usage(w io.Writer) {
	fmt.Fprintf(w, "usage: gearbox [--log-level LEVEL] [--log-format text|json] COMMAND [flags]\n\ncommands:\n")
	for _, c := range commands() {
		fmt.Fprintf(w, "  %-8s %-28s %s\n", c.name, c.args, c.summary)
	}
	fmt.Fprintf(w, "\nRun 'gearbox COMMAND -h' for a command's flags.\n")
}

// run is the whole program, testable: it parses global flags, configures
// logging and dispatches to a subcommand.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("gearbox", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { usage(stderr) }
	level := fs.String("log-level", "info", "log level: debug, info, warn, error")
	format := fs.String("log-format", "text", "log format: text (human-readable) or json")
	args, err := hoistGlobalFlags(args, "log-level", "log-format")
	if err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	e := &env{stdout: stdout, stderr: stderr}
	if f, ok := stderr.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		e.interactive = true
	}
	lvl, err := zerolog.ParseLevel(*level)
	if err != nil || *level == "" {
		return fmt.Errorf("%w: --log-level %q: want debug, info, warn or error", errUsage, *level)
	}
	switch *format {
	case "json":
		e.log = zerolog.New(stderr).Level(lvl).With().Timestamp().Logger()
	case "text":
		e.log = zerolog.New(zerolog.ConsoleWriter{Out: stderr, NoColor: !e.interactive, TimeFormat: time.TimeOnly}).Level(lvl).With().Timestamp().Logger()
	default:
		return fmt.Errorf("%w: --log-format %q: want text or json", errUsage, *format)
	}
	rest := fs.Args()
	if len(rest) == 0 {
		usage(stderr)
		return fmt.Errorf("%w: no command given", errUsage)
	}
	name := rest[0]
	if name == "help" {
		usage(stdout)
		return nil
	}
	var names []string
	for _, c := range commands() {
		if c.name == name {
			return c.run(ctx, e, rest[1:])
		}
		names = append(names, c.name)
	}
	sort.Strings(names)
	return fmt.Errorf("%w: unknown command %q (commands: %s)", errUsage, name, strings.Join(names, ", "))
}

// hoistGlobalFlags moves the named global flags (with their values) to the
// front of args, so "gearbox run bfs --log-format json" works like
// "gearbox --log-format json run bfs".
func hoistGlobalFlags(args []string, names ...string) ([]string, error) {
	var front, rest []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			rest = append(rest, args[i:]...)
			break
		}
		name, _, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if !strings.HasPrefix(a, "-") || !slices.Contains(names, name) {
			rest = append(rest, a)
			continue
		}
		front = append(front, a)
		if !hasValue {
			if i+1 >= len(args) {
				return nil, fmt.Errorf("flag needs an argument: %s", a)
			}
			i++
			front = append(front, args[i])
		}
	}
	return append(front, rest...), nil
}

// parseInterspersed parses flags that may appear before, between or after
// positional arguments ("convert in.mtx out.el --undirected").
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		if args[0] == "--" {
			return append(pos, args[1:]...), nil
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}

// newFlagSet makes a subcommand's flag set that reports errors instead of
// exiting.
func newFlagSet(e *env, name, argsUsage string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	fs.Usage = func() {
		fmt.Fprintf(e.stderr, "usage: gearbox %s %s [flags]\n\nflags:\n", name, argsUsage)
		fs.PrintDefaults()
	}
	return fs
}

// parseFlags parses a subcommand's arguments, turning -h into a clean exit
// and flag errors into usage errors.
func parseFlags(fs *flag.FlagSet, args []string) (pos []string, help bool, err error) {
	pos, err = parseInterspersed(fs, args)
	if errors.Is(err, flag.ErrHelp) {
		return nil, true, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("%w: %v", errUsage, err)
	}
	return pos, false, nil
}
