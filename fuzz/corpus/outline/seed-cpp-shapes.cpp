#include <memory>
#include <string>
#include "shapes.hpp"

using namespace std;
using Id = std::uint64_t;

namespace geo {
namespace detail {
constexpr double kPi = 3.14159;
}

template <typename T>
struct Point {
    T x, y;
};

class Shape {
public:
    Shape() = default;
    explicit Shape(std::string name) : name_(std::move(name)) {}
    virtual ~Shape() = default;
    virtual double area() const = 0;
    const std::string& name() const { return name_; }

    class Visitor {
    public:
        virtual void visit(const Shape& s) = 0;
    };

private:
    std::string name_;
};

class Circle final : public Shape {
public:
    explicit Circle(double r);
    double area() const override;
    static std::unique_ptr<Circle> unit() { return std::make_unique<Circle>(1.0); }
};

double Circle::area() const {
    return detail::kPi * r_ * r_;  // "// not a comment"
}

template <typename T>
T max_of(const T& a, const T& b) {
    return a > b ? a : b;
}

enum class Color : unsigned char { Red, Green };
}  // namespace geo

int main() {
    auto c = geo::Circle::unit();
    return c->area() > 0 ? 0 : 1;
}
template <typename Key, typename Value, typename Hash = std::hash<Key>, typename KeyEqual = std::equal_to<Key>, typename Allocator = std::allocator<std::pair<const Key, Value>>>
std::unordered_map<Key, Value, Hash, KeyEqual, Allocator> merge_maps(const std::unordered_map<Key, Value, Hash, KeyEqual, Allocator>& left, const std::unordered_map<Key, Value, Hash, KeyEqual, Allocator>& right) {
  return left;
}
