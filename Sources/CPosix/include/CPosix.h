// CPosix: the few Linux declarations Swift's Glibc module does not expose.
#pragma once
