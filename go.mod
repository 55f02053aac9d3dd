module knightwalk

go 1.24
