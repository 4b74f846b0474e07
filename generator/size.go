package main

import (
	"fmt"
	"io"
)

func cmdSize(args []string, stdout, stderr io.Writer) int {
	fmt.Fprintln(stderr, "size: not built yet")
	return 2
}
