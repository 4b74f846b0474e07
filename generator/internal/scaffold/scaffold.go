// Package scaffold writes commented templates for new catalog entries and
// guides ("generator new gpu|provider|offer|model|guide ID"). A template
// shows every field with its format and fails `check` until it is filled
// in, so an unedited template can never be merged by accident.
package scaffold

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/BurntSushi/toml"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/catalog"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/content"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/schema"
)

// Kinds returns the kinds of entry New can write, in usage order.
func Kinds() []string { return []string{"gpu", "provider", "offer", "model", "guide"} }

// UsageError is an error in what was asked for (an unknown kind, an
// invalid id), as opposed to a refusal given the state of the site.
type UsageError struct{ Msg string }

func (e *UsageError) Error() string { return e.Msg }

// ExistsError is the error New returns when it refuses to overwrite an
// existing file, or to add a second unfinished offer template.
type ExistsError struct{ Msg string }

func (e *ExistsError) Error() string { return e.Msg }

// New writes the template of kind for id under the site root and returns
// the path it wrote, relative to root in slash form. Files are never
// overwritten; "offer" appends an [[offers]] block to
// data/offers/<id>.toml (creating it), where id is an existing provider.
func New(root, kind, id string) (string, error) {
	if !catalog.ValidID(id) {
		return "", &UsageError{fmt.Sprintf("%q is not a valid id: use lowercase letters, digits and single dashes (e.g. h100-sxm5-80gb)", id)}
	}
	switch kind {
	case "gpu":
		return create(root, "data/gpus/"+id+".toml", fill(gpuTemplate, id, "data/gpus/"+id+".toml"))
	case "provider":
		return create(root, "data/providers/"+id+".toml", fill(providerTemplate, id, "data/providers/"+id+".toml"))
	case "model":
		return create(root, "data/models/"+id+".toml", fill(modelTemplate, id, "data/models/"+id+".toml"))
	case "guide":
		if _, err := os.Stat(filepath.Join(root, "content", id+".md")); err == nil {
			return "", &ExistsError{fmt.Sprintf("content/%s.md already has the slug %q; choose another id", id, id)}
		}
		return create(root, "content/guides/"+id+".md", fill(guideTemplate, id, ""))
	case "offer":
		return appendOffer(root, id)
	}
	return "", &UsageError{fmt.Sprintf("unknown kind %q (want one of: %s)", kind, strings.Join(Kinds(), ", "))}
}

// fill replaces the template's markers.
func fill(tmpl, id, rel string) string {
	directive, _ := schema.Directive(rel)
	return strings.NewReplacer(
		"{SCHEMA}", directive,
		"{ID}", id,
		"{FORM_FACTORS}", strings.Join(catalog.FormFactors(), ", "),
		"{SEGMENTS}", strings.Join(catalog.Segments(), ", "),
		"{INTERCONNECT_KINDS}", strings.Join(catalog.InterconnectKinds(), ", "),
		"{PROVIDER_KINDS}", strings.Join(catalog.ProviderKinds(), ", "),
		"{INCREMENTS}", strings.Join(catalog.BillingIncrements(), ", "),
		"{RDMA}", strings.Join(catalog.RDMAKinds(), ", "),
		"{BILLING}", strings.Join(catalog.BillingModes(), ", "),
		"{UNITS}", strings.Join(catalog.PriceUnits(), ", "),
		"{PAYMENTS}", strings.Join(catalog.PaymentOptions(), ", "),
		"{COMMITMENTS}", strings.Join(catalog.CommitmentKinds(), ", "),
		"{DATE_BASES}", strings.Join(catalog.DateBases(), ", "),
		"{EVIDENCE}", strings.Join(catalog.EvidenceKinds(), ", "),
		"{COST_KINDS}", strings.Join(catalog.ExtraCostKinds(), ", "),
		"{SECTIONS}", strings.Join(content.Sections(), ", "),
	).Replace(tmpl)
}

// create writes a new file, refusing to replace one.
func create(root, rel, text string) (string, error) {
	abs := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
		return "", err
	}
	f, err := os.OpenFile(abs, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if errors.Is(err, os.ErrExist) {
		return "", &ExistsError{fmt.Sprintf("%s already exists; not overwriting it (edit it, or choose another id)", rel)}
	}
	if err != nil {
		return "", err
	}
	if _, err := f.WriteString(text); err != nil {
		f.Close()
		return "", err
	}
	return rel, f.Close()
}

// appendOffer adds an offer template to the offers file of provider id.
func appendOffer(root, id string) (string, error) {
	provRel := "data/providers/" + id + ".toml"
	var prov catalog.Provider
	if _, err := toml.DecodeFile(filepath.Join(root, filepath.FromSlash(provRel)), &prov); err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return "", fmt.Errorf("no provider %q: %s does not exist (an offers file is named after its provider; write the provider first: generator new provider %s)", id, provRel, id)
		}
		// A provider file that does not decode still names a provider;
		// its region ids are just not listed in the template.
	}
	var regions []string
	for _, r := range prov.Regions {
		if r.ID != "" {
			regions = append(regions, fmt.Sprintf("%q", r.ID))
		}
	}
	regionList := strings.Join(regions, ", ")
	if regionList == "" {
		regionList = "see " + provRel
	}
	currencies := "see data/fx.toml"
	var fx catalog.FX
	if _, err := toml.DecodeFile(filepath.Join(root, "data", "fx.toml"), &fx); err == nil && fx.Base != "" {
		currencies = strings.Join(fx.Currencies(), ", ")
	}
	rel := "data/offers/" + id + ".toml"
	abs := filepath.Join(root, filepath.FromSlash(rel))
	block := strings.NewReplacer("{REGIONS}", regionList, "{CURRENCIES}", currencies).Replace(fill(offerTemplate, id, rel))
	old, err := os.ReadFile(abs)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return create(root, rel, fill(offersHeader, id, rel)+block)
	case err != nil:
		return "", err
	}
	for _, line := range strings.Split(string(old), "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), offerMarker) {
			return "", &ExistsError{fmt.Sprintf("%s already holds an unfinished offer template (%s); fill it in first", rel, offerMarker)}
		}
	}
	f, err := os.OpenFile(abs, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		return "", err
	}
	text := block
	if len(old) > 0 && old[len(old)-1] != '\n' {
		text = "\n" + text
	}
	if _, err := f.WriteString(text); err != nil {
		f.Close()
		return "", err
	}
	return rel, f.Close()
}
