package capture

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"github.com/BurntSushi/toml"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/catalog"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/tomlpos"
)

// QueriesFile is the file, under the site root, that says what each
// provider's source is asked.
const QueriesFile = catalog.CaptureDir + "/queries.toml"

// Query is what one provider's source is asked: its table in
// QueriesFile.
type Query struct {
	// Regions and SKUs: the public catalogs (Azure armRegionName and
	// armSkuName, AWS region codes and instance types).
	Regions []string `toml:"regions"`
	SKUs    []string `toml:"skus"`
	// ImageID is the public image an instance price is asked with
	// (Tencent Cloud requires one); ProjectID the project (Huawei Cloud).
	ImageID   string `toml:"image_id"`
	ProjectID string `toml:"project_id"`
	// Instances are the instance types asked one by one (the Chinese
	// clouds' inquiry APIs).
	Instances []InstanceQuery `toml:"instances"`
	// Pages are public price pages to keep as page captures.
	Pages []string `toml:"pages"`
}

// InstanceQuery is one instance type asked in one region.
type InstanceQuery struct {
	Region   string `toml:"region"`   // the catalog's region id
	Zone     string `toml:"zone"`     // the availability zone, where the API asks for one
	Instance string `toml:"instance"` // the instance type (Baidu: the spec)
	SpecID   string `toml:"spec_id"`  // Baidu: the spec family
	// GPU and GPUCount describe an instance the catalog has no offer for
	// yet (a data/gpus id and the GPUs per instance).
	GPU      string `toml:"gpu"`
	GPUCount int    `toml:"gpu_count"`
	// Billing lists the modes to ask: on-demand, committed (a one-month
	// subscription); default on-demand.
	Billing []string `toml:"billing"`
}

// Queries is QueriesFile decoded: a Query per provider id.
type Queries map[string]Query

// LoadQueries reads root's QueriesFile. Keys it does not know are errors
// with their position, as in the catalog's files.
func LoadQueries(root string) (Queries, error) {
	p := filepath.Join(root, filepath.FromSlash(QueriesFile))
	src, err := os.ReadFile(p)
	if err != nil {
		return nil, err
	}
	var q Queries
	md, err := toml.Decode(string(src), &q)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", QueriesFile, err)
	}
	if und := md.Undecoded(); len(und) > 0 {
		ix := tomlpos.Scan(src)
		k := und[0].String()
		pos := ix.Key(k)
		return nil, fmt.Errorf("%s:%d:%d: unknown key %q (known: regions, skus, image_id, project_id, instances, pages; in instances: region, zone, instance, spec_id, gpu, gpu_count, billing)", QueriesFile, pos.Line, pos.Col, k)
	}
	for id, pq := range q {
		for i, iq := range pq.Instances {
			if iq.Region == "" || iq.Instance == "" {
				return nil, fmt.Errorf("%s: [%s] instances %d: region and instance are required", QueriesFile, id, i+1)
			}
			for _, b := range iq.Billing {
				if b != "on-demand" && b != "committed" {
					return nil, fmt.Errorf("%s: [%s] instances %d: billing %q is not on-demand or committed", QueriesFile, id, i+1, b)
				}
			}
		}
	}
	return q, nil
}

// Providers returns the providers QueriesFile names, sorted.
func (q Queries) Providers() []string {
	ids := make([]string, 0, len(q))
	for id := range q {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return ids
}

func (iq InstanceQuery) billings() []string {
	if len(iq.Billing) == 0 {
		return []string{"on-demand"}
	}
	return iq.Billing
}

// catalogPart is what a request records about the instance for the
// parser (not sent to the provider).
func (iq InstanceQuery) catalogPart() map[string]any {
	m := map[string]any{"region": iq.Region}
	if iq.GPU != "" {
		m["gpu"], m["gpu_count"] = iq.GPU, iq.GPUCount
	}
	return m
}
