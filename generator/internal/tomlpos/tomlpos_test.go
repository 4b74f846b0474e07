package tomlpos

import "testing"

const sample = `# comment
name = "H100" # trailing
[interconnect]
kind = "NVLink"
bandwidth_gbs = 900

[[offers]]
instance = "a"
regions = ["us-east-1",
  "eu-west-1"]
note = """multi
line = 3
"""
[[offers.prices]]
price = 1.5
[[offers.prices]]
"price" = 2
[[offers]]
instance = 'b'
inline = { a = 1, b = "x" }
[[offers.prices]]
price = 3
`

func TestScan(t *testing.T) {
	ix := Scan([]byte(sample))
	tests := []struct {
		path     string
		key, val Pos
	}{
		{"name", Pos{2, 1}, Pos{2, 8}},
		{"interconnect.kind", Pos{4, 1}, Pos{4, 8}},
		{"interconnect.bandwidth_gbs", Pos{5, 1}, Pos{5, 17}},
		{"offers.0.instance", Pos{8, 1}, Pos{8, 12}},
		{"offers.0.regions.1", Pos{10, 3}, Pos{10, 3}},
		{"offers.0.prices.0.price", Pos{15, 1}, Pos{15, 9}},
		{"offers.0.prices.1.price", Pos{17, 1}, Pos{17, 11}},
		{"offers.1.instance", Pos{19, 1}, Pos{19, 12}},
		{"offers.1.inline.b", Pos{20, 19}, Pos{20, 23}},
		{"offers.1.prices.0.price", Pos{22, 1}, Pos{22, 9}},
		{"offers.1", Pos{18, 1}, Pos{18, 1}},
	}
	for _, tt := range tests {
		if got := ix.Key(tt.path); got != tt.key {
			t.Errorf("Key(%q) = %v, want %v", tt.path, got, tt.key)
		}
		if got := ix.Value(tt.path); got != tt.val {
			t.Errorf("Value(%q) = %v, want %v", tt.path, got, tt.val)
		}
	}
	if ix.Key("offers.0.note.line") != (Pos{}) || ix.Key("line") != (Pos{}) {
		t.Errorf("a key inside a multi-line string was indexed")
	}
	if got := ix.Find("offers.prices.price"); len(got) != 3 {
		t.Errorf("Find returned %v, want 3 positions", got)
	}
}

func FuzzScan(f *testing.F) {
	f.Add(sample)
	f.Add("a = [1, [2, {b = 'c'}]]\n[[x.y]]\n\"q\".r = 1")
	f.Fuzz(func(t *testing.T, s string) {
		ix := Scan([]byte(s))
		for _, p := range ix.Paths() {
			if ix.Key(p).Line < 1 {
				t.Fatalf("path %q has no line", p)
			}
		}
	})
}
