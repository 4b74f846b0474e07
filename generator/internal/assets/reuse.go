package assets

import (
	"regexp"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/diag"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/output"
)

// wasmNames are the logical names of the WebAssembly files.
var wasmNames = []string{"size.wasm", "extra.wasm", "config.wasm", "wasm_exec.js"}

// reusedWASM matches the content-hashed names buildWASM gives the
// calculator's WebAssembly modules and Go's wasm_exec.js (see addHashed).
var reusedWASM = regexp.MustCompile(`^assets/(size|extra|config)\.[0-9a-f]{10}\.wasm$|^assets/(wasm_exec)\.[0-9a-f]{10}\.js$`)

// WASM adds the calculator's WebAssembly and wasm_exec.js to tree and
// manifest: copied from reuse, a previous build's tree, when it holds all
// four (nil: none), else
// compiled by buildWASM. Compiling generator/wasm is most of a build's time
// and depends only on the generator's Go sources, never on the site's
// data, content, templates or static files, so a caller that knows those
// sources did not change (the dev server) can skip it.
func WASM(root string, reuse *output.Tree, tree *output.Tree, manifest map[string]string, d *diag.List) {
	if reuse != nil {
		found := map[string]string{}
		for _, p := range reuse.Paths() {
			if m := reusedWASM.FindStringSubmatch(p); m != nil {
				found[m[1]+m[2]] = p
			}
		}
		if found["size"] != "" && found["extra"] != "" && found["config"] != "" && found["wasm_exec"] != "" {
			for logical, key := range map[string]string{"size.wasm": "size", "extra.wasm": "extra", "config.wasm": "config", "wasm_exec.js": "wasm_exec"} {
				b, _ := reuse.Get(found[key])
				tree.Add(found[key], b)
				manifest[logical] = found[key]
			}
			return
		}
	}
	buildWASM(root, tree, manifest, d)
}
