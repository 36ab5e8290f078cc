# SOURCE: openvpi/SingingVocoders@4d0889c4c180c75ad3000cc565864656344f8190 training/__init__.py (MIT; whole file, empty)
