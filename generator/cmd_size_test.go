package main

import (
	"bytes"
	"encoding/json"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/fixture"
)

// TestSizePricesAreCurrent: the size command's cost per million tokens is
// priced from current prices only (the site's stale_days rule, on the day
// of SOURCE_DATE_EPOCH), each with its date; two years on, none is left.
func TestSizePricesAreCurrent(t *testing.T) {
	for _, tc := range []struct {
		day  string
		want []string // offers priced, with their dates
	}{
		// acme beta.1x holds the model too (one Beta 24GB at batch 1), but its
		// on-demand price (2023-03-01) is stale on both days.
		{"2025-11-01", []string{"acme/alpha-8x 2025-06-01", "drachen/gpu-a1 2025-09-01"}},
		{"2027-10-01", nil},
	} {
		day, _ := time.Parse(time.DateOnly, tc.day)
		t.Setenv("SOURCE_DATE_EPOCH", strconv.FormatInt(day.Unix(), 10))
		var out, errOut bytes.Buffer
		if code := cmdSize([]string{"-root", fixture.Root(), "-model", "tiny-7b", "-concurrency", "1", "-json"}, &out, &errOut); code != 0 {
			t.Fatalf("%s: exit %d: %s", tc.day, code, errOut.String())
		}
		var rep struct {
			Costs []struct {
				Offer string `json:"offer"`
				AsOf  string `json:"as_of"`
			} `json:"cost_per_million_tokens"`
		}
		if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, c := range rep.Costs {
			got = append(got, c.Offer+" "+c.AsOf)
		}
		slices.Sort(got)
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: priced %q, want %q", tc.day, got, tc.want)
		}
	}
}

// TestRootFlag: -root is found wherever it stands before "--", in each
// spelling, the last one winning.
func TestRootFlag(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
		ok   bool
	}{
		{[]string{"-model", "llama-3-8b"}, "", false},
		{[]string{"-root", "site", "-model", "x"}, "site", true},
		{[]string{"-model", "x", "-root", "site"}, "site", true},
		{[]string{"-model", "x", "--root=site", "-json"}, "site", true},
		{[]string{"-root", "a", "-root", "b"}, "b", true},
		{[]string{"-model", "x", "--", "-root", "site"}, "", false},
		{[]string{"-model", "x", "-root"}, "", false},
		{[]string{"-model", "rootish", "-gpu", "root"}, "", false},
	} {
		if got, ok := rootFlag(c.args); got != c.want || ok != c.ok {
			t.Errorf("rootFlag(%q) = %q, %v; want %q, %v", c.args, got, ok, c.want, c.ok)
		}
	}
}
