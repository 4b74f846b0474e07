package pages

import "testing"

func TestReadableCode(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`<p>Run <code>nvidia-smi --query-gpu=a.b</code>.</p>`, `<p>Run <code>nvidia-<wbr>smi --<wbr>query-<wbr>gpu=<wbr>a.<wbr>b</code>.</p>`},
		{`<code>x_&amp;_y</code>`, `<code>x_<wbr>&amp;_<wbr>y</code>`},
		{`<code>a.</code>`, `<code>a.</code>`},
		{`<pre><code class="language-sh">a.b_c
</code></pre>`, `<pre tabindex="0"><code class="language-sh">a.b_c
</code></pre>`},
		{`<pre><code>a.b</code></pre>`, `<pre tabindex="0"><code>a.b</code></pre>`},
		{`<pre>plain</pre>`, `<pre tabindex="0">plain</pre>`},
	} {
		if got := readableCode(c.in); got != c.want {
			t.Errorf("readableCode(%q)\n got %q\nwant %q", c.in, got, c.want)
		}
	}
}
