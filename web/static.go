package web

import (
	"embed"
	"fmt"
	"io/fs"
	"net/http"
	"regexp"
	"strings"
)

//go:embed static
var static embed.FS

// modules are the page's script files, each after those it imports: the replay inlines them in
// this order as one script.
var modules = []string{"draw.js", "replaysource.js", "app.js"}

// staticHandler serves the page and its files.
func staticHandler() http.Handler {
	sub, err := fs.Sub(static, "static")
	if err != nil {
		panic("web: the page's files are missing: " + err.Error())
	}
	files := http.FileServerFS(sub)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-cache")
		w.Header().Set("X-Content-Type-Options", "nosniff")
		files.ServeHTTP(w, r)
	})
}

var (
	importLine = regexp.MustCompile(`(?m)^import .*;\n`)
	exportWord = regexp.MustCompile(`(?m)^export `)
)

// inlinePage is index.html with its styles and its modules inline, as one module script: a
// page that needs no other file.
func inlinePage() (string, error) {
	read := func(name string) (string, error) {
		b, err := static.ReadFile("static/" + name)
		if err != nil {
			return "", fmt.Errorf("web: the page's file %s is missing: %w", name, err)
		}
		return string(b), nil
	}
	page, err := read("index.html")
	if err != nil {
		return "", err
	}
	css, err := read("style.css")
	if err != nil {
		return "", err
	}
	var js strings.Builder
	for _, m := range modules {
		src, err := read(m)
		if err != nil {
			return "", err
		}
		src = importLine.ReplaceAllString(src, "")
		js.WriteString(exportWord.ReplaceAllString(src, ""))
	}
	page = strings.Replace(page, `<link rel="stylesheet" href="style.css">`, "<style>\n"+css+"</style>", 1)
	page = strings.Replace(page, `<script type="module" src="app.js"></script>`,
		"<script type=\"module\">\n"+strings.ReplaceAll(js.String(), "</script", `<\/script`)+"</script>", 1)
	return page, nil
}
