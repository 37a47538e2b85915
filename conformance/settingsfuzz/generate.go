package settingsfuzz

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
)

// The generator draws from small pools, so that cases collide: the same
// few keys set in several places, the same few profiles activated,
// grouped and tested. A case holds a handful of files and keys, so that
// a difference minimizes to something a reader takes in at once.

// userKeys are the settings every case compares.
var userKeys = []string{"k.a", "k.b", "k.c", "k.d"}

// profiles are the profile names drawn; g is also a group's name.
var profiles = []string{"a", "b", "c"}

// profileLists are values of spring.profiles.active, include and default.
var profileLists = []string{"a", "b", "c", "a,b", "b,a", "c,a", "g", "a,g", "b , c", "a,b,a"}

// badProfiles are profile lists that Spring's validation refuses.
var badProfiles = []string{"-a", "a_", "a b", "a,,b", "$a"}

// conditions are values of spring.config.activate.on-profile.
var conditions = []string{"a", "b", "c", "!a", "!b", "a & !b", "a | c", "(a | b) & !c", "a,b", "g", "default", "!default", "a & b"}

// imports are values of spring.config.import; each names files the case
// may hold (ensured by ensureImported) or may lack.
var imports = []string{
	"optional:file:./extra.properties",
	"file:./extra.yml",
	"extra.yml", // relative to the importing file, or the working directory
	"optional:file:./missing.properties",
	"file:./missing.yml",
	"optional:file:./dir/",
	"file:./dir/",
	"optional:file:./nodir/",
	// A config tree's path is absolute: Spring reads a relative one from
	// the JVM's working directory, which cannot be the case's (Write
	// puts each side's directory for @DIR@).
	"configtree:@DIR@/tree/",
	"optional:configtree:@DIR@/notree/",
	"optional:file:./extra.properties,file:./extra.yml",
}

// locations are values of spring.config.location and additional-location.
var locations = []string{
	"optional:file:./loc/",
	"file:./loc/",
	"file:./loc/application.yml",
	"optional:file:./nope/",
	"optional:file:./;optional:file:./loc/",
	"optional:file:./loc/,optional:file:./config/",
}

// generator draws one case.
type generator struct {
	r     *rand.Rand
	c     *Case
	files map[string]int // path -> index in c.Files
	name  string         // spring.config.name, "application" unless set
}

// Generate draws case n of seed: the same seed and n always give the same
// case.
func Generate(seed uint64, n int) *Case {
	g := &generator{r: rand.New(rand.NewPCG(seed, uint64(n))), files: map[string]int{}, name: "application"}
	g.c = &Case{Name: fmt.Sprintf("%d-%d", seed, n), Keys: slices.Clone(userKeys)}
	g.draw()
	return g.c
}

// kv is a setting written as a plain value.
func kv(key, value string) KV { return KV{Key: key, Value: value} }

func (g *generator) chance(p float64) bool { return g.r.Float64() < p }

func pick[T any](g *generator, from []T) T { return from[g.r.IntN(len(from))] }

func (g *generator) draw() {
	if g.chance(0.08) {
		g.name = "custom"
		g.setting(kv("spring.config.name", "custom"), true)
	}
	dirs := []string{"", "", "config/", "config/x/"}
	for range 1 + g.r.IntN(3) {
		g.settingsFile(pick(g, dirs) + g.name + "." + g.ext())
	}
	for range g.r.IntN(3) {
		g.settingsFile(pick(g, dirs) + g.name + "-" + pick(g, profiles) + "." + g.ext())
	}
	if g.chance(0.15) {
		g.settingsFile(pick(g, dirs) + g.name + "-g." + g.ext())
	}
	for range g.r.IntN(3) {
		g.setting(g.outsideSetting(), g.chance(0.5))
	}
}

// ext is a settings file's extension.
func (g *generator) ext() string {
	return pick(g, []string{"properties", "properties", "yml", "yml", "yaml"})
}

// settingsFile adds a file of one to three documents at path (or more
// documents to the one there).
func (g *generator) settingsFile(path string) {
	if _, ok := g.files[path]; ok {
		return
	}
	kind := Properties
	if !strings.HasSuffix(path, ".properties") {
		kind = YAML
	}
	f := File{Path: path, Kind: kind, Nested: g.chance(0.4), Colon: g.chance(0.2)}
	profileFile := strings.Contains(path[strings.LastIndex(path, "/")+1:], "-")
	ndocs := 1
	if g.chance(0.4) {
		ndocs = 2 + g.r.IntN(2)
	}
	for i := range ndocs {
		var d Doc
		conditional := i > 0 && g.chance(0.6)
		if conditional {
			d.KVs = append(d.KVs, kv("spring.config.activate.on-profile", pick(g, conditions)))
		}
		for range 1 + g.r.IntN(3) {
			d.KVs = append(d.KVs, g.fileSetting(profileFile || conditional))
		}
		f.Docs = append(f.Docs, d)
	}
	g.files[path] = len(g.c.Files)
	g.c.Files = append(g.c.Files, f)
}

// fileSetting draws a setting for a document; restricted documents
// (profile files, conditional ones) rarely set profile keys, which Spring
// refuses there.
func (g *generator) fileSetting(restricted bool) KV {
	x := g.r.Float64()
	switch {
	case x < 0.62:
		return kv(pick(g, userKeys), g.value())
	case x < 0.72:
		if restricted && !g.chance(0.1) {
			return kv(pick(g, userKeys), g.value())
		}
		return g.profileSetting(true)
	case x < 0.78:
		if restricted && !g.chance(0.1) {
			return kv(pick(g, userKeys), g.value())
		}
		return kv("spring.profiles.group.g", pick(g, []string{"a,b", "b", "c,a", "b,c"}))
	default:
		v := pick(g, imports)
		g.ensureImported(v)
		return kv("spring.config.import", v)
	}
}

// profileSetting draws spring.profiles.active, include or default; in a
// file (list true) sometimes as a list; now and then a name Spring's
// validation refuses.
func (g *generator) profileSetting(list bool) KV {
	kv := KV{Key: pick(g, []string{"spring.profiles.active", "spring.profiles.active", "spring.profiles.include", "spring.profiles.default"}), Value: pick(g, profileLists)}
	if g.chance(0.05) {
		kv.Value = pick(g, badProfiles)
	}
	kv.List = list && strings.Contains(kv.Value, ",") && !strings.Contains(kv.Value, ",,") && g.chance(0.4)
	return kv
}

// outsideSetting draws a setting for the environment or the command line.
func (g *generator) outsideSetting() KV {
	x := g.r.Float64()
	switch {
	case x < 0.4:
		return kv(pick(g, userKeys), g.value())
	case x < 0.6:
		return g.profileSetting(false)
	case x < 0.68:
		v := pick(g, imports)
		g.ensureImported(v)
		return kv("spring.config.import", v)
	case x < 0.78:
		v := pick(g, locations)
		g.ensureLocation(v)
		return kv(pick(g, []string{"spring.config.location", "spring.config.additional-location"}), v)
	case x < 0.84:
		return kv("spring.profiles.group.g", pick(g, []string{"a,b", "c"}))
	case x < 0.87:
		return kv(pick(g, []string{"spring.config.on-not-found", "spring.profiles.validate"}), pick(g, []string{"ignore", "fail", "false", "true"}))
	default:
		return kv("spring.application.json", g.json())
	}
}

// setting puts kv in the environment (relaxed: SPRING_PROFILES_ACTIVE,
// K_A; spring.application.json as SPRING_APPLICATION_JSON) or on the
// command line.
func (g *generator) setting(s KV, env bool) {
	if !env {
		g.c.Args = append(g.c.Args, s)
		return
	}
	name := strings.ToUpper(strings.NewReplacer(".", "_", "-", "").Replace(s.Key))
	g.c.Env = append(g.c.Env, kv(name, s.Value))
}

// json draws a SPRING_APPLICATION_JSON object.
func (g *generator) json() string {
	k := pick(g, userKeys)
	switch g.r.IntN(4) {
	case 0:
		return fmt.Sprintf(`{"%s":"j%d"}`, k, g.r.IntN(9))
	case 1:
		return fmt.Sprintf(`{"k":{"%s":"j%d"}}`, k[2:], g.r.IntN(9))
	case 2:
		return fmt.Sprintf(`{"spring":{"profiles":{"active":"%s"}}}`, pick(g, profiles))
	default:
		return fmt.Sprintf(`{"k":{"%s":"${%s:jd}"}}`, k[2:], pick(g, userKeys))
	}
}

// value draws a setting's value: a literal, or placeholders with and
// without defaults, nested.
func (g *generator) value() string {
	lit := fmt.Sprintf("v%d", g.r.IntN(100))
	k, k2 := pick(g, userKeys), pick(g, userKeys)
	switch g.r.IntN(10) {
	case 0:
		return "${" + k + "}"
	case 1:
		return "${" + k + ":" + lit + "}"
	case 2:
		return "${" + k + ":${" + k2 + ":x}}"
	case 3:
		return "p-${" + k + ":d}-s"
	case 4:
		return "${spring.profiles.active:none}"
	case 5:
		return "${K_" + strings.ToUpper(k[2:]) + ":e}"
	case 6:
		if g.chance(0.3) {
			return `\${` + k + "}"
		}
		return lit
	default:
		return lit
	}
}

// ensureImported writes the files an import names, mostly: a missing
// file is part of what is fuzzed.
func (g *generator) ensureImported(list string) {
	for _, v := range strings.Split(list, ",") {
		v = strings.TrimPrefix(v, "optional:")
		switch {
		case strings.Contains(v, "missing") || strings.Contains(v, "nodir") || strings.Contains(v, "notree"):
		case strings.HasPrefix(v, "configtree:"):
			for range 1 + g.r.IntN(2) {
				k := pick(g, userKeys)
				path := "tree/" + strings.ReplaceAll(k, ".", "/")
				if _, ok := g.files[path]; !ok {
					g.files[path] = len(g.c.Files)
					g.c.Files = append(g.c.Files, File{Path: path, Kind: Tree, Value: pick(g, []string{"t1", "t2\n", "${k.a:td}"})})
				}
			}
		case strings.HasSuffix(v, "/"):
			if g.chance(0.9) {
				g.leafFile(strings.TrimPrefix(strings.TrimPrefix(v, "file:"), "./") + g.name + "." + g.ext())
			}
		default:
			path := strings.TrimPrefix(strings.TrimPrefix(v, "file:"), "./")
			if g.chance(0.9) {
				g.leafFile(path)
			}
			if g.chance(0.3) {
				// An imported file's profile variant: extra-a.yml.
				dot := strings.LastIndex(path, ".")
				g.leafFile(path[:dot] + "-" + pick(g, profiles) + path[dot:])
			}
		}
	}
}

// ensureLocation writes the files a location names, mostly.
func (g *generator) ensureLocation(list string) {
	if !strings.Contains(list, "loc/") || !g.chance(0.9) {
		return
	}
	if strings.HasSuffix(list, ".yml") {
		g.leafFile("loc/application.yml")
		return
	}
	g.leafFile("loc/" + g.name + "." + g.ext())
	if g.chance(0.4) {
		g.leafFile("loc/" + g.name + "-" + pick(g, profiles) + "." + g.ext())
	}
}

// leafFile adds a settings file that imports nothing, so that imports
// end.
func (g *generator) leafFile(path string) {
	if _, ok := g.files[path]; ok {
		return
	}
	kind := Properties
	if !strings.HasSuffix(path, ".properties") {
		kind = YAML
	}
	f := File{Path: path, Kind: kind, Nested: g.chance(0.4)}
	d := Doc{}
	for range 1 + g.r.IntN(2) {
		d.KVs = append(d.KVs, kv(pick(g, userKeys), g.value()))
	}
	f.Docs = append(f.Docs, d)
	if g.chance(0.3) {
		f.Docs = append(f.Docs, Doc{KVs: []KV{kv("spring.config.activate.on-profile", pick(g, conditions)), kv(pick(g, userKeys), g.value())}})
	}
	g.files[path] = len(g.c.Files)
	g.c.Files = append(g.c.Files, f)
}
