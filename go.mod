module github.com/gpu-atlas/gpu-atlas

go 1.26.8

require (
	github.com/BurntSushi/toml v1.6.0 // indirect
	github.com/yuin/goldmark v1.8.7 // indirect
)
